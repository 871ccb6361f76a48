import '@tensorflow/tfjs'; // registers tfjs' own gradients (for the composite reference)
import { add, engine, getKernel, grads, moments, mul, rsqrt, sub, sum, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';
import { LAYER_NORM_KERNEL } from '@attnkit/kernels';

const fused = (x: Tensor, gamma: Tensor, beta: Tensor, epsilon: number): Tensor => engine().runKernel(LAYER_NORM_KERNEL, { x, gamma, beta }, { epsilon }) as Tensor;
const composite = (x: Tensor, gamma: Tensor, beta: Tensor, epsilon: number): Tensor => {
  const { mean, variance } = moments(x, -1, true);
  return add(mul(mul(sub(x, mean), rsqrt(add(variance, epsilon))), gamma), beta);
};

/** nn.LayerNorm in float64 over rows of `width`. */
function layerNorm64(x: number[], gamma: number[], beta: number[], width: number, epsilon: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < x.length / width; r++) {
    const row = x.slice(r * width, (r + 1) * width);
    const mean = row.reduce((s, v) => s + v, 0) / width;
    const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / width;
    row.forEach((v, i) => out.push(((v - mean) / Math.sqrt(variance + epsilon)) * gamma[i]! + beta[i]!));
  }
  return out;
}

const values = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => Math.fround(Math.sin(seed * 12.9898 + i * 78.233) * 3 + ((i % 7) - 3) * 0.1));

describe('wasm LayerNorm kernel (fused, SIMD)', () => {
  it('is within 2e-6 of float64 nn.LayerNorm for widths 1–9, 384 and 385, rank 1–3, eps 1e-12 and 1e-5', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain(LAYER_NORM_KERNEL);
    expect(getKernel(LAYER_NORM_KERNEL, 'cpu')).toBeUndefined();
    for (const [shape, epsilon] of [[[3, 1], 1e-5], [[2], 1e-12], [[4, 3], 1e-12], [[2, 4], 1e-5], [[5], 1e-12], [[2, 2, 7], 1e-12], [[3, 9], 1e-5], [[2, 3, 384], 1e-12], [[5, 385], 1e-5]] as Array<[number[], number]>) {
      const width = shape.at(-1)!;
      const n = shape.reduce((p, s) => p * s, 1);
      const [xs, gs, bs] = [values(n, width), values(width, 2).map((v) => 1 + v / 10), values(width, 3)];
      const y = fused(tensor(xs, shape), tensor(gs), tensor(bs), epsilon);
      const got = await y.data();
      const expected = layerNorm64(xs, gs, bs, width, epsilon);
      const worst = expected.reduce((m, v, i) => Math.max(m, Math.abs(got[i]! - v)), 0);
      expect({ shape, shapeOut: y.shape, ok: worst <= 2e-6 }).toEqual({ shape, shapeOut: shape, ok: true });
    }
  });

  it('maps a constant row to beta (variance 0: (x - mean) = 0), keeps NaN in its row only, and leaks nothing', async () => {
    await useBackend('wasm');
    const gamma = tensor([2, 2, 2, 2, 2]);
    const beta = tensor([0.5, -1, 0, 1, 3]);
    const y = fused(tensor([[7, 7, 7, 7, 7], [1, NaN, 0, 0, 0], [1, 2, 3, 4, 5]]), gamma, beta, 1e-12);
    const rows = (await y.array()) as number[][];
    expect(rows[0]).toEqual([0.5, -1, 0, 1, 3]);
    expect(rows[1]!.every(Number.isNaN)).toBe(true);
    expect(rows[2]!.every(Number.isFinite)).toBe(true);
    const x = tensor([[1, 2, 3, 4, 5]]);
    expect(await leaksOf(() => fused(x, gamma, beta, 1e-12).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [gamma, beta, y, x].forEach((t) => t.dispose());
  });

  it('has the gradients of the composite for x, gamma and beta (≤ 1e-5)', async () => {
    await useBackend('wasm');
    const x = tensor(values(2 * 3 * 6, 5), [2, 3, 6]);
    const gamma = tensor(values(6, 6));
    const beta = tensor(values(6, 7));
    const upstream = tensor(values(2 * 3 * 6, 8), [2, 3, 6]); // a non-uniform dy
    const loss = (f: typeof fused) => (a: Tensor, g: Tensor, b: Tensor) => sum(mul(f(a, g, b, 1e-5), upstream));
    const got = grads(loss(fused))([x, gamma, beta]);
    const expected = grads(loss(composite))([x, gamma, beta]);
    for (let i = 0; i < 3; i++) {
      const [a, b] = [await got[i]!.data(), await expected[i]!.data()];
      expect({ input: i, shape: got[i]!.shape, ok: Array.from(a).every((v, j) => Math.abs(v - b[j]!) <= 1e-5) }).toEqual({ input: i, shape: expected[i]!.shape, ok: true });
    }
  });
});
