import { randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { leaksOf } from '@attnkit/test-utils';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { int8Kernel, int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import { quantizeRows } from './quantize-rows.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';
import { expectExactOnAllShapes, expectQuantizerMatches, INT8_SHAPES } from './testing/int8-cases.js';

// Chromium has relaxed SIMD on (since 114): every kernel runs here, the relaxed one included.
describe('int8 kernels in Chromium', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it('validates all three kernels, relaxed SIMD preferred', () => {
    expect(int8Kernels()).toEqual({ supported: ['relaxed-simd', 'simd', 'js'], preferred: 'relaxed-simd' });
  });

  it('runs the relaxed kernel on the fused relaxed dot (i32x4.relaxed_dot_i8x16_i7x16_add_s): Chromium computes it right', () => {
    expect((int8Kernel('relaxed-simd', 'test') as unknown as { fastVariant: boolean }).fastVariant).toBe(true);
  });

  it.each(['relaxed-simd', 'simd', 'js'] as const)('%s equals int8MatMulReference bit for bit on every shape, and quantizes as quantizeRows does', (name) => {
    const kernel = int8Kernel(name, 'test');
    expect(expectExactOnAllShapes(kernel)).toBe(2 * INT8_SHAPES.length);
    expectQuantizerMatches(kernel);
  });

  // webgl: int8MatMul reads x back from the GPU (dataSync) and uploads the result; same numbers.
  it.each(['cpu', 'wasm', 'webgl'] as const)('int8MatMul gives the reference numbers on %s with each kernel, leaking nothing', async (backend) => {
    await useTfjsBackend(backend);
    const [x, w, bias] = [randomNormal([3, 5, 100], 0, 1, 'float32', 1), randomNormal([100, 24], 0, 0.1, 'float32', 2), randomNormal([24], 0, 1, 'float32', 3)];
    const weight = quantizeWeightPerChannel(w);
    const xs = (await x.data()) as Float32Array;
    for (const name of ['relaxed-simd', 'simd', 'js'] as const) {
      const q = quantizeRows(xs, 15, 100, int8Kernel(name, 'test').activationLevels, 'test', 'x');
      const want = dequantizeAccumulators(int8MatMulReference(q.values, weight.values, { rows: 15, cols: 24, depth: 100 }), q.scales, weight.scales, (await bias.data()) as Float32Array);
      const y: Tensor = int8MatMul(x, weight, bias, { kernel: name });
      expect(y.shape).toEqual([3, 5, 24]);
      expect(Array.from(await y.data()), `${backend} ${name}`).toEqual(Array.from(want));
      y.dispose();
    }
    expect(await leaksOf(() => int8MatMul(x, weight, bias).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, w, bias].forEach((t) => t.dispose());
  });
});
