import { engine, grad, sum, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { kernelRoute } from '../kernel-route.js';
import { RMS_NORM_KERNEL } from './wasm-rms-norm-fill.js';

/** LlamaRMSNorm in float64 from the float32 inputs: x / √(mean(x²) + eps) · weight per row. */
function reference(x: Float32Array, weight: Float32Array, width: number, eps: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let r = 0; r < x.length / width; r++) {
    let squares = 0;
    for (let i = 0; i < width; i++) squares += x[r * width + i]! ** 2;
    const inv = 1 / Math.sqrt(squares / width + eps);
    for (let i = 0; i < width; i++) out[r * width + i] = x[r * width + i]! * inv * weight[i]!;
  }
  return out;
}
const seeded = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed) * 43758.5453 % 1 * 4);

describe('RMS_NORM_KERNEL on wasm', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it('equals LlamaRMSNorm (float64 reference) within float32 rounding, for widths with and without a 4-lane tail, leaking nothing', async () => {
    for (const [rows, width] of [[1, 576], [3, 7], [2, 64], [5, 1], [1, 130]] as const) {
      const [xs, ws] = [seeded(rows * width, rows), seeded(width, width)];
      const [x, weight] = [tensor(xs, [rows, width]), tensor(ws, [width])];
      const y = engine().runKernel(RMS_NORM_KERNEL, { x, weight }, { epsilon: 1e-6 }) as Tensor;
      expect(y.shape).toEqual([rows, width]);
      const want = reference(xs, ws, width, 1e-6);
      const got = await y.data();
      for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!), `[${rows}, ${width}] at ${i}`).toBeLessThanOrEqual(4e-7 * (1 + Math.abs(want[i]!)));
      expect(await leaksOf(() => (engine().runKernel(RMS_NORM_KERNEL, { x, weight }, { epsilon: 1e-6 }) as Tensor).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [x, weight, y].forEach((t) => t.dispose());
    }
  });

  it('gives an empty output for no rows, and zeros (not NaN) for a zero row', async () => {
    const empty = engine().runKernel(RMS_NORM_KERNEL, { x: tensor([], [0, 4]), weight: tensor([1, 2, 3, 4]) }, { epsilon: 1e-6 }) as Tensor;
    expect(empty.shape).toEqual([0, 4]);
    const zero = engine().runKernel(RMS_NORM_KERNEL, { x: tensor([0, 0, 0, 0], [1, 4]), weight: tensor([1, 2, 3, 4]) }, { epsilon: 1e-6 }) as Tensor;
    expect(Array.from(await zero.data())).toEqual([0, 0, 0, 0]);
  });

  it('is routed only outside gradient recording (it has no gradient of its own), and refuses a gradient asked of it by name', () => {
    const x = tensor([[1, 2, 3]]);
    expect(kernelRoute('rmsNorm', [x]).useKernel).toBe(true);
    const routedInGrad: boolean[] = [];
    grad((v: Tensor) => { routedInGrad.push(kernelRoute('rmsNorm', [v]).useKernel); return sum(v); })(x);
    expect(routedInGrad).toEqual([false]);
    expect(() => grad((v: Tensor) => sum(engine().runKernel(RMS_NORM_KERNEL, { x: v, weight: tensor([1, 1, 1]) }, { epsilon: 1e-6 }) as Tensor))(x)).toThrow(/^AttnkitRmsNorm: has no gradient/);
  });
});
