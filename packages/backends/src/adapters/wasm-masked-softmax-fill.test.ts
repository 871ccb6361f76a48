import '@tensorflow/tfjs'; // registers tfjs' own gradients (for the composite reference)
import { cast, engine, getKernel, grad, mul, softmax, sum, tensor, where, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';
import { MASKED_SOFTMAX_KERNEL } from '@attnkit/kernels';

const fused = (scores: Tensor, mask: Tensor): Tensor => engine().runKernel(MASKED_SOFTMAX_KERNEL, { scores, mask }) as Tensor;
const values = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => Math.fround(Math.sin(seed * 12.9898 + i * 78.233) * 4));
/** 0/1 pseudo-random mask values, about 70 % allowed. */
const bits = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => Number(Math.abs(Math.sin(seed * 3.1 + i * 17.7)) < 0.7));

/** Masked softmax in float64: softmax over the allowed entries, 0 elsewhere, all-blocked rows 0. */
function reference(scores: number[], shape: number[], mask: number[], maskShape: number[]): number[] {
  const width = shape.at(-1)!;
  const full = [...Array(shape.length - maskShape.length).fill(1), ...maskShape] as number[];
  const allowedAt = (flat: number): boolean => {
    let rest = flat;
    let index = 0;
    let stride = 1;
    for (let a = shape.length - 1; a >= 0; a--) {
      const i = rest % shape[a]!;
      rest = Math.floor(rest / shape[a]!);
      index += (full[a] === 1 ? 0 : i) * stride;
      stride *= full[a]!;
    }
    return mask[index] === 1;
  };
  const out: number[] = [];
  for (let r = 0; r < scores.length / width; r++) {
    const allowed = Array.from({ length: width }, (_, j) => allowedAt(r * width + j));
    const row = scores.slice(r * width, (r + 1) * width);
    const max = Math.max(...row.filter((_, j) => allowed[j]));
    const e = row.map((v, j) => (allowed[j] ? Math.exp(v - max) : 0));
    const total = e.reduce((s, v) => s + v, 0);
    out.push(...e.map((v) => (total === 0 ? 0 : v / total)));
  }
  return out;
}

describe('wasm masked softmax kernel (fused, SIMD)', () => {
  it('matches float64 (≤ 2.5e-7) for every broadcast pattern of the mask: padding, causal, per head, full, rank 1, mixed', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain(MASKED_SOFTMAX_KERNEL);
    expect(getKernel(MASKED_SOFTMAX_KERNEL, 'cpu')).toBeUndefined();
    const shape = [2, 3, 5, 7]; // [B, H, T, S]
    const scores = values(2 * 3 * 5 * 7, 1);
    for (const maskShape of [[2, 1, 1, 7], [1, 1, 5, 7], [2, 1, 5, 7], [2, 3, 5, 7], [7], [2, 3, 1, 7], [1, 3, 1, 7], [3, 5, 7], [5, 7]]) {
      const mask = bits(maskShape.reduce((p, s) => p * s, 1), maskShape.length + maskShape[0]!);
      const y = fused(tensor(scores, shape), tensor(mask, maskShape, 'bool'));
      const got = await y.data();
      const expected = reference(scores, shape, mask, maskShape);
      const worst = expected.reduce((m, v, i) => Math.max(m, Math.abs(got[i]! - v)), 0);
      expect({ maskShape, worst: worst <= 2.5e-7 ? 'ok' : worst }).toEqual({ maskShape, worst: 'ok' }); // float32: a few ulp of values up to 1
      y.dispose();
    }
  });

  it('gives exact zeros to blocked entries and all-blocked rows, ignores NaN and ±inf where blocked, and handles S = 1–9 and 130', async () => {
    await useBackend('wasm');
    const y = fused(tensor([[NaN, 1, Infinity, 2], [3, 4, 5, 6], [-Infinity, 0, 0, 1]]), tensor([[0, 1, 0, 1], [0, 0, 0, 0], [0, 1, 1, 1]], [3, 4], 'bool'));
    const rows = (await y.array()) as number[][];
    expect(rows[0]).toEqual([0, expect.closeTo(0.2689414, 6), 0, expect.closeTo(0.7310586, 6)]);
    expect(rows[1]).toEqual([0, 0, 0, 0]);
    expect(rows[2]![0]).toBe(0);
    for (const width of [1, 2, 3, 4, 5, 6, 7, 8, 9, 130]) {
      const [s, m] = [values(4 * width, width), bits(width, width)];
      const got = await fused(tensor(s, [4, width]), tensor(m, [width], 'bool')).data();
      const expected = reference(s, [4, width], m, [width]);
      expect({ width, ok: expected.every((v, i) => Math.abs(got[i]! - v) <= 2.5e-7) }).toEqual({ width, ok: true });
    }
  });

  it('rows whose allowed scores are all -inf give zeros; a NaN among the allowed scores gives a NaN row, also when all allowed are NaN', async () => {
    await useBackend('wasm');
    for (const width of [3, 5, 21]) { // the one-float, four-float and sixteen-float paths
      const rows = [Array(width).fill(-Infinity), Array(width).fill(NaN), [NaN, ...Array<number>(width - 1).fill(0)], Array(width).fill(-3.4e38), Array(width).fill(-1e9)];
      const mask = Array.from({ length: width }, (_, i) => i !== 1); // entry 1 blocked
      const y = (await fused(tensor(rows.flat(), [5, width]), tensor(mask, [width], 'bool')).array()) as number[][];
      expect(y[0]).toEqual(Array(width).fill(0));
      expect(y[1]!.every(Number.isNaN)).toBe(true);
      expect(y[2]!.every(Number.isNaN)).toBe(true);
      for (const row of [y[3]!, y[4]!]) expect(row.every((v, i) => Math.abs(v - (mask[i] ? 1 / (width - 1) : 0)) < 1e-6)).toBe(true); // uniform over the allowed, however low
    }
  });

  it('has the gradient of the composite (where, softmax, × mask), and leaks nothing', async () => {
    await useBackend('wasm');
    const scores = tensor(values(2 * 2 * 3 * 6, 9), [2, 2, 3, 6]);
    const mask = tensor(bits(2 * 6, 4), [2, 1, 1, 6], 'bool');
    const upstream = tensor(values(2 * 2 * 3 * 6, 10), [2, 2, 3, 6]);
    const composite = (s: Tensor): Tensor => mul(softmax(where(mask, s, -1e9)), cast(mask, 'float32'));
    const [got, expected] = [grad((s: Tensor) => sum(mul(fused(s, mask), upstream)))(scores), grad((s: Tensor) => sum(mul(composite(s), upstream)))(scores)];
    const [a, b] = [await got.data(), await expected.data()];
    expect(Array.from(a).every((v, i) => Math.abs(v - b[i]!) <= 1e-6)).toBe(true);
    expect(await leaksOf(() => fused(scores, mask).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [scores, mask, upstream, got, expected].forEach((t) => t.dispose());
  });
});
