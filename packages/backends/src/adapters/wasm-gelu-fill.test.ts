import '@tensorflow/tfjs'; // registers tfjs' own gradients (erf, exp, ...)
import { engine, getKernel, grad, tensor1d, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { erf64, GELU_KERNEL } from '@attnkit/kernels';
import { useBackend } from '../use-backend.js';

const gelu64 = (x: number): number => 0.5 * x * (1 + erf64(x * Math.SQRT1_2));
const geluKernel = (x: Tensor): Tensor => engine().runKernel(GELU_KERNEL, { x }) as Tensor;

describe('wasm GELU kernel (fused, SIMD)', () => {
  it('is registered on wasm only, and is within 1e-6 of float64 GELU over 400k points in [-10, 10]', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain(GELU_KERNEL);
    expect([getKernel(GELU_KERNEL, 'wasm') !== undefined, getKernel(GELU_KERNEL, 'cpu')]).toEqual([true, undefined]);
    const xs = Array.from({ length: 400_001 }, (_, i) => Math.fround(-10 + i / 20_000));
    const y = geluKernel(tensor1d(xs));
    const ys = await y.data();
    const worst = xs.reduce((m, x, i) => Math.max(m, Math.abs(ys[i]! - gelu64(x))), 0);
    expect(worst).toBeLessThan(1e-6);
    expect(worst).toBeGreaterThan(0);
    y.dispose();
  });

  it('gives NaN, ±Infinity and ±0 as PyTorch does (gelu(-inf) = -inf · 0 = NaN); tails of any length', async () => {
    await useBackend('wasm');
    const out = Array.from(await geluKernel(tensor1d([NaN, Infinity, -Infinity, 0, -0, -40, 40])).data());
    expect([Number.isNaN(out[0]), out[1], Number.isNaN(out[2]), Object.is(out[3], 0), Object.is(out[4], -0), out[5], out[6]]).toEqual([true, Infinity, true, true, true, -0, 40]);
    for (let n = 1; n <= 19; n++) {
      const xs = Array.from({ length: n }, (_, i) => Math.fround(i * 0.37 - 3));
      const got = await geluKernel(tensor1d(xs)).data();
      expect(xs.map((x, i) => Math.abs(got[i]! - gelu64(x)) < 1e-6)).toEqual(xs.map(() => true));
    }
  });

  it('has the gradient Φ(x) + x·φ(x), and leaks nothing', async () => {
    await useBackend('wasm');
    const xs = [-4, -1.5, -0.2, 0, 0.3, 1, 2.5, 6];
    const x = tensor1d(xs);
    const dx = grad(geluKernel)(x);
    const expected = xs.map((v) => 0.5 * (1 + erf64(v * Math.SQRT1_2)) + (v * Math.exp(-0.5 * v * v)) / Math.sqrt(2 * Math.PI));
    const got = await dx.data();
    expect(xs.map((_, i) => Math.abs(got[i]! - expected[i]!) < 1e-6)).toEqual(xs.map(() => true));
    expect(await leaksOf(() => geluKernel(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, dx].forEach((t) => t.dispose());
  });
});
