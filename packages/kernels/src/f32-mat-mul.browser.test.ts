import { fused, randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { leaksOf } from '@attnkit/test-utils';
import { f32MatMul64 } from './f32-mat-mul64.js';
import { f32Kernels } from './f32-kernels.js';
import { f32MatMul } from './f32-mat-mul.js';

// Chromium has relaxed SIMD on (since 114): both float32 kernels run here, the relaxed one preferred.
describe('float32 kernels in Chromium', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it('validates both kernels, relaxed SIMD preferred', () => {
    expect(f32Kernels()).toEqual({ supported: ['relaxed-simd', 'simd'], preferred: 'relaxed-simd' });
  });

  it("'simd' equals tfjs-wasm's fused matMul bit for bit; 'relaxed-simd' is within the float32 rounding bound and differs (a fused multiply-add)", async () => {
    await useTfjsBackend('wasm');
    const [n, k, m] = [65, 129, 67];
    const [x, weight, bias] = [randomNormal([n, k], 0, 1, 'float32', 1), randomNormal([m, k], 0, 0.2, 'float32', 2), randomNormal([m], 0, 0.5, 'float32', 3)];
    const tfjs = Array.from(fused.matMul({ a: x, b: weight, transposeB: true, bias }).dataSync());
    expect(Array.from(f32MatMul(x, weight, bias, { kernel: 'simd' }).dataSync())).toEqual(tfjs);
    const reference = f32MatMul64(x.dataSync() as Float32Array, n, weight.dataSync() as Float32Array, m, k, bias.dataSync() as Float32Array);
    const relaxed = Array.from(f32MatMul(x, weight, bias, { kernel: 'relaxed-simd' }).dataSync());
    expect(Math.max(...relaxed.map((v, i) => Math.abs(v - (reference.values[i] as number))))).toBeLessThanOrEqual(reference.float32Bound);
    expect(relaxed).not.toEqual(tfjs); // the CPUs this runs on have FMA: one rounding per step instead of two
  });

  // webgl: f32MatMul reads x back from the GPU (dataSync) and uploads the result; same numbers
  it.each(['cpu', 'wasm', 'webgl'] as const)('gives the same numbers on %s with each kernel, leaking nothing', async (backend) => {
    await useTfjsBackend(backend);
    const [x, weight, bias] = [randomNormal([3, 5, 100], 0, 1, 'float32', 4), randomNormal([24, 100], 0, 0.1, 'float32', 5), randomNormal([24], 0, 1, 'float32', 6)];
    const reference = f32MatMul64((await x.data()) as Float32Array, 15, (await weight.data()) as Float32Array, 24, 100, (await bias.data()) as Float32Array);
    for (const kernel of ['relaxed-simd', 'simd'] as const) {
      const y: Tensor = f32MatMul(x, weight, bias, { kernel });
      expect(y.shape).toEqual([3, 5, 24]);
      const values = Array.from(await y.data());
      expect(Math.max(...values.map((v, i) => Math.abs(v - (reference.values[i] as number)))), `${backend} ${kernel}`).toBeLessThanOrEqual(reference.float32Bound);
      y.dispose();
    }
    expect(await leaksOf(() => f32MatMul(x, weight, bias, { activation: 'gelu' }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, weight, bias].forEach((t) => t.dispose());
  });
});
