import '@tensorflow/tfjs'; // gradients
import { engine, getGradient, getKernel, grad, mul, tensor1d, type KernelFunc, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

describe('registerWasmKernel', () => {
  it('registers a kernel and its gradient on wasm once, and reports it', async () => {
    await useTfjsBackend('wasm');
    const doubled: KernelFunc = ({ inputs, backend }) => {
      const { x } = inputs as unknown as { x: TensorInfo };
      const b = wasmInternals(backend)!;
      const out = b.makeOutput(x.shape, 'float32');
      const [from, to] = [new Float32Array(b.wasm.HEAPU8.buffer, heapOffset(b, x), 3), new Float32Array(b.wasm.HEAPU8.buffer, heapOffset(b, out), 3)];
      from.forEach((v, i) => (to[i] = 2 * v));
      return out;
    };
    const gradient = { inputsToSave: ['x'], gradFunc: (dy: Tensor | Tensor[]) => ({ x: () => mul(dy as Tensor, 2) }) };
    expect(registerWasmKernel('AttnkitTestDouble', doubled, gradient)).toEqual(['AttnkitTestDouble']);
    expect(registerWasmKernel('AttnkitTestDouble', doubled, gradient)).toEqual(['AttnkitTestDouble']); // once
    expect([getKernel('AttnkitTestDouble', 'wasm') !== undefined, getKernel('AttnkitTestDouble', 'cpu'), getGradient('AttnkitTestDouble') !== undefined]).toEqual([true, undefined, true]);
    const run = (x: Tensor): Tensor => engine().runKernel('AttnkitTestDouble', { x }) as Tensor;
    const x = tensor1d([1, -2, 0.5]);
    expect(Array.from(await run(x).data())).toEqual([2, -4, 1]);
    expect(Array.from(await grad(run)(x).data())).toEqual([2, 2, 2]);
  });
});
