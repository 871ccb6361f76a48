import { add, engine, mul, tanh, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { kernelRoute } from '../kernel-route.js';
import { GELU_TANH_KERNEL } from './wasm-gelu-tanh-fill.js';

/**
 * 0.5 · x · (1 + tanh(u)), u = √(2/π) · (x + 0.044715 · x³), as PyTorch's gelu(approximate='tanh')
 * defines it, in float64 and in the form without cancellation, x / (1 + exp(−2u)): below x ≈ −6,
 * 1 + tanh(u) is 0 in float64 while the value is not.
 */
const reference = (x: number) => x / (1 + Math.exp(-2 * Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

describe('GELU_TANH_KERNEL on wasm', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it('equals the tanh GELU (float64 reference) within a few float32 ulps, over the whole float range and every tail length, leaking nothing', async () => {
    const values = [0, -0, 1e-30, -1e-30, 1e-3, -1e-3, 0.5, -0.5, 1, -1, 3, -3, 5, -5, 9, -9, 10, -10, 20, -20, 88.5, -88.5, 1e4, -1e4, 1e30, -1e30, ...Array.from({ length: 301 }, (_, i) => (i - 150) / 17.3)];
    for (const length of [values.length, 1, 3, 7, 9]) { // the 8-wide body, and tails of 1 to 7
      const input = Float32Array.from(values.slice(0, length));
      const x = tensor(input, [length]);
      const y = engine().runKernel(GELU_TANH_KERNEL, { x }) as Tensor;
      const got = await y.data();
      for (let i = 0; i < length; i++) {
        const want = reference(input[i]!);
        const argument = Math.abs(2 * Math.sqrt(2 / Math.PI) * (input[i]! + 0.044715 * input[i]! ** 3)); // |2u|: exp(a) carries a's float32 rounding times |a|
        const tolerance = (6e-7 + 2.4e-7 * Math.min(argument, 100)) * Math.abs(want) + 1e-37; // the exponential (2 ulp), a division, and the argument's rounding (a few ulps of |2u|)
        expect(Math.abs(got[i]! - want), `x = ${input[i]}`).toBeLessThanOrEqual(tolerance);
      }
      expect(await leaksOf(() => (engine().runKernel(GELU_TANH_KERNEL, { x }) as Tensor).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [x, y].forEach((t) => t.dispose());
    }
  });

  it('agrees with the composite it replaces to float32 rounding on [B, T, I], and keeps the shape', async () => {
    const x = tensor(Float32Array.from({ length: 2 * 3 * 10 }, (_, i) => Math.sin(i) * 6), [2, 3, 10]);
    const fused = engine().runKernel(GELU_TANH_KERNEL, { x }) as Tensor;
    const composite = mul(mul(x, 0.5), add(tanh(mul(add(x, mul(mul(mul(x, x), x), 0.044715)), Math.sqrt(2 / Math.PI))), 1));
    expect(fused.shape).toEqual([2, 3, 10]);
    const [a, b] = [await fused.data(), await composite.data()];
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(b[i]!)));
  });

  it('gives an empty output for an empty input, and is routed only outside gradient recording', () => {
    expect((engine().runKernel(GELU_TANH_KERNEL, { x: tensor([], [0, 6]) }) as Tensor).shape).toEqual([0, 6]);
    expect(kernelRoute('geluTanh', [tensor([[1, 2]])]).useKernel).toBe(true);
  });
});
