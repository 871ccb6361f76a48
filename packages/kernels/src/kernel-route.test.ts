import '@tensorflow/tfjs-core/dist/register_all_gradients'; // Sum's gradient, for grad()
import { grad, sum, tensor1d, tidy } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { f32Kernels } from './f32-kernels.js';
import { fusedAttentionKernels } from './fused-attention-kernels.js';
import { kernelRoute, type RoutedKernel } from './kernel-route.js';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { thrown } from '@attnkit/test-utils';

const KERNELS: readonly RoutedKernel[] = ['f32MatMul', 'int8MatMul', 'fusedAttention', 'gelu', 'layerNorm', 'maskedSoftmax'];
const routes = (inputs = [] as Parameters<typeof kernelRoute>[1]) => Object.fromEntries(KERNELS.map((k) => [k, kernelRoute(k, inputs).useKernel]));

describe('kernelRoute: hand-written kernel or tfjs', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it('on cpu sends only int8 (the only int8 arithmetic) to a kernel, and never hands a view over', async () => {
    await useTfjsBackend('cpu');
    expect(routes()).toEqual({ f32MatMul: false, int8MatMul: true, fusedAttention: false, gelu: false, layerNorm: false, maskedSoftmax: false });
    expect(KERNELS.map((k) => kernelRoute(k).inPlace)).toEqual(KERNELS.map(() => false));
  });

  it('on wasm sends every kernel this engine runs, in place; float32 inputs only', async () => {
    await useTfjsBackend('wasm');
    const simd = f32Kernels().preferred !== undefined;
    expect(routes()).toEqual({ f32MatMul: simd, int8MatMul: true, fusedAttention: fusedAttentionKernels().supported.includes('simd'), gelu: simd, layerNorm: simd, maskedSoftmax: simd });
    expect(KERNELS.map((k) => kernelRoute(k).inPlace)).toEqual(KERNELS.map(() => true));
    const ints = tensor1d([1, 2], 'int32');
    expect(Object.values(routes([ints, undefined]))).toEqual(KERNELS.map(() => false));
    ints.dispose();
  });

  it('while a gradient is recorded, keeps the kernels without one (products, fused attention) off, and the registered ones (with gradients) on', async () => {
    await useTfjsBackend('wasm');
    let recorded: Record<string, boolean> = {};
    const x = tensor1d([1, 2]);
    tidy(() => grad((v) => { recorded = routes([v]); return sum(v); })(x));
    const simd = f32Kernels().preferred !== undefined;
    expect(recorded).toEqual({ f32MatMul: false, int8MatMul: false, fusedAttention: false, gelu: simd, layerNorm: simd, maskedSoftmax: simd });
    x.dispose();
  });

  it('refuses an input that is no tensor (a hole or undefined is an optional input left out)', () => {
    expect(thrown(() => kernelRoute('gelu', [1 as never])).message).toBe("kernelRoute: 'inputs[0]' must be a tensor (or undefined: an optional input left out); received number 1.");
    expect(thrown(() => kernelRoute('gelu', [undefined, null as never])).message).toContain("'inputs[1]'");
    expect(kernelRoute('gelu', [undefined])).toEqual(kernelRoute('gelu', [])); // an absent input is skipped
  });
});
