import { engine, randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { GELU_KERNEL } from './tfjs-fills/wasm-gelu-fill.js';
import { geluF32 } from './erf-f32.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { int8Kernel, int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import { quantizeRows } from './quantize-rows.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';

// x spread so the GELU sees both erf branches, the tails and values near 0; an odd width.
const sizes = { rows: 37, depth: 70, cols: 45 };

describe("int8MatMul with activation: 'gelu' (bias + GELU in the kernel's epilogue)", () => {
  afterAll(() => useTfjsBackend('cpu'));

  it.each(['cpu', 'wasm'] as const)('on %s, every kernel gives geluF32 of the exact product, bit for bit', async (backend) => {
    await useTfjsBackend(backend);
    const x = randomNormal([sizes.rows, sizes.depth], 0, 3, 'float32', 1);
    const weight = quantizeWeightPerChannel(randomNormal([sizes.depth, sizes.cols], 0, 0.3, 'float32', 2));
    const bias = randomNormal([sizes.cols], 0, 1, 'float32', 3);
    for (const name of int8Kernels().supported) {
      const q = quantizeRows(x.dataSync() as Float32Array, sizes.rows, sizes.depth, int8Kernel(name, 'test').activationLevels, 'test', 'x');
      const linear = dequantizeAccumulators(int8MatMulReference(q.values, weight.values, sizes), q.scales, weight.scales, bias.dataSync() as Float32Array);
      const got = Array.from(int8MatMul(x, weight, bias, { kernel: name, activation: 'gelu' }).dataSync());
      expect(got, name).toEqual(Array.from(linear, geluF32));
      expect(got.some((v) => v < 0) && got.some((v) => v > 2), 'both tails reached').toBe(true);
    }
  });

  it("on wasm equals the backend's own GELU kernel applied to the unfused product", async () => {
    await useTfjsBackend('wasm');
    const x = randomNormal([4, 9, sizes.depth], 0, 3, 'float32', 4);
    const weight = quantizeWeightPerChannel(randomNormal([sizes.depth, sizes.cols], 0, 0.3, 'float32', 5));
    const unfused = engine().runKernel(GELU_KERNEL, { x: int8MatMul(x, weight) }) as Tensor;
    expect(Array.from(int8MatMul(x, weight, undefined, { activation: 'gelu' }).dataSync())).toEqual(Array.from(unfused.dataSync()));
  });

  it.each(['relu', 'GELU', 1, null])('refuses activation %s with a typed error naming the choices', async (activation) => {
    await useTfjsBackend('cpu');
    const x = randomNormal([2, 8], 0, 1, 'float32', 6);
    const weight = quantizeWeightPerChannel(randomNormal([8, 3], 0, 1, 'float32', 7));
    expect(() => int8MatMul(x, weight, undefined, { activation: activation as 'gelu' })).toThrow(InvalidArgumentError);
    expect(() => int8MatMul(x, weight, undefined, { activation: activation as 'gelu' })).toThrow(/one of 'gelu'/);
  });
});
