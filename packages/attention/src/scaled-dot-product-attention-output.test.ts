import { grad, ones, profile, randomNormal, sum, tensor, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, seededIntegers, thrown } from '@attnkit/test-utils';
import { scaledDotProductAttention } from './scaled-dot-product-attention.js';
import { scaledDotProductAttentionOutput } from './scaled-dot-product-attention-output.js';

beforeAll(() => useBackend('cpu'));

/** max |got − want| / max |want|. */
function relativeDifference(want: ArrayLike<number>, got: ArrayLike<number>): number {
  let [difference, scale] = [0, 0];
  for (let i = 0; i < want.length; i++) {
    difference = Math.max(difference, Math.abs((want[i] as number) - (got[i] as number)));
    scale = Math.max(scale, Math.abs(want[i] as number));
  }
  return scale === 0 ? difference : difference / scale;
}

/** A random bool mask of `shape`, ~25% blocked, with row 1 of the query axis fully blocked when `blockRow`. */
function randomMask(shape: number[], seed: number, blockRow = false): Tensor {
  const next = seededIntegers(seed);
  const values = Uint8Array.from({ length: shape.reduce((a, d) => a * d, 1) }, () => (next(4) === 0 ? 0 : 1));
  const [s, t] = [shape.at(-1) as number, shape.at(-2) as number];
  if (blockRow) for (let r = 0; r < values.length / (t * s); r++) values.fill(0, (r * t + 1) * s, (r * t + 2) * s);
  return tensor(values, shape, 'bool');
}

// [B, H, T, S, D, Dv], mask shape, bias shape, scale of q and k
const CASES: ReadonlyArray<readonly [string, readonly number[], number[] | undefined, number[] | undefined, number, boolean]> = [
  ['padding mask [B, 1, 1, S], T ≠ S, D = 6', [2, 3, 5, 7, 6, 6], [2, 1, 1, 7], undefined, 1, false],
  ['mask [B, 1, T, S] with a fully masked row, H = 1, D = 3', [3, 1, 4, 17, 3, 3], [3, 1, 4, 17], undefined, 1, true],
  ['mask [1, 1, T, S], bias [1, H, T, S] (MPNet), B = 1', [1, 4, 9, 13, 8, 8], [1, 1, 9, 13], [1, 4, 9, 13], 1, false],
  ['rank-2 mask [T, S] and rank-2 bias [T, S], Dv ≠ D', [2, 2, 6, 10, 5, 7], [6, 10], [6, 10], 1, false],
  ['large score magnitudes (q, k ~ N(0, 4²)), padding mask', [2, 2, 7, 11, 9, 9], [2, 1, 1, 11], undefined, 4, false],
  ['MiniLM-like: T = S = 128, D = 32, padding mask with a padded row', [2, 2, 128, 128, 32, 32], [2, 1, 1, 128], undefined, 1, false],
  ['no mask, no bias', [1, 2, 3, 4, 4, 4], undefined, undefined, 1, false],
];

describe('scaledDotProductAttentionOutput on wasm (fused)', () => {
  beforeAll(() => useBackend('wasm'));
  afterAll(() => useBackend('cpu'));

  it.each(CASES.map((c) => [c[0], c] as const))('is within 1e-5 of scaledDotProductAttention(...).output, without its matMul or softmax: %s', async (_, c) => {
    const [[b, h, t, s, d, dv], maskShape, biasShape, magnitude, blockRow] = [c[1] as number[], c[2], c[3], c[4], c[5]];
    const [q, k, v] = [randomNormal([b!, h!, t!, d!], 0, magnitude, 'float32', 1), randomNormal([b!, h!, s!, d!], 0, magnitude, 'float32', 2), randomNormal([b!, h!, s!, dv!], 0, 1, 'float32', 3)];
    const mask = maskShape === undefined ? undefined : randomMask(maskShape, 4, blockRow);
    const bias = biasShape === undefined ? undefined : randomNormal(biasShape, 0, 2, 'float32', 5);
    const unfused = scaledDotProductAttention(q, k, v, { mask, bias });
    let fused: Tensor | undefined;
    const { kernelNames } = await profile(() => { fused = scaledDotProductAttentionOutput(q, k, v, { mask, bias }); return fused; });
    expect(kernelNames).not.toContain('BatchMatMul');
    expect(relativeDifference(await unfused.output.data(), await fused!.data())).toBeLessThanOrEqual(1e-5);
    if (blockRow) expect(Array.from((await fused!.data()).subarray(dv!, 2 * dv!))).toEqual(Array.from({ length: dv! }, () => 0));
    [q, k, v, mask, bias, unfused.output, unfused.attentionWeights, fused].forEach((x) => x?.dispose());
  });

  it('leaks nothing (rank-2 mask and bias reshaped, then disposed)', async () => {
    const [q, k, v] = [randomNormal([2, 2, 6, 8]), randomNormal([2, 2, 10, 8]), randomNormal([2, 2, 10, 8])];
    const [mask, bias] = [ones([6, 10], 'bool'), zeros([6, 10])];
    expect(await leaksOf(() => scaledDotProductAttentionOutput(q, k, v, { mask, bias }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [q, k, v, mask, bias].forEach((x) => x.dispose());
  });

  it('runs unfused when training, under a gradient tape, or with another scorer, and then has the gradient of the unfused path', async () => {
    const [q, k, v] = [randomNormal([1, 2, 4, 8], 0, 1, 'float32', 6), randomNormal([1, 2, 5, 8], 0, 1, 'float32', 7), randomNormal([1, 2, 5, 8], 0, 1, 'float32', 8)];
    const { kernelNames } = await profile(() => scaledDotProductAttentionOutput(q, k, v, { training: true }));
    expect(kernelNames).toContain('BatchMatMul');
    const [want, got] = [grad((x: Tensor) => sum(scaledDotProductAttention(x, k, v).output))(q), grad((x: Tensor) => sum(scaledDotProductAttentionOutput(x, k, v)))(q)];
    expect(Array.from(await got.data())).toEqual(Array.from(await want.data()));
    [q, k, v, want, got].forEach((x) => x.dispose());
  });
});

describe('scaledDotProductAttentionOutput', () => {
  it('is scaledDotProductAttention(...).output on cpu, bit for bit, leaking nothing', async () => {
    const [q, k, v] = [randomNormal([2, 3, 5, 8], 0, 1, 'float32', 1), randomNormal([2, 3, 7, 8], 0, 1, 'float32', 2), randomNormal([2, 3, 7, 4], 0, 1, 'float32', 3)];
    const mask = randomMask([2, 1, 1, 7], 9);
    const want = scaledDotProductAttention(q, k, v, { mask });
    const got = scaledDotProductAttentionOutput(q, k, v, { mask });
    expect(Array.from(await got.data())).toEqual(Array.from(await want.output.data()));
    expect(await leaksOf(() => scaledDotProductAttentionOutput(q, k, v, { mask }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [q, k, v, mask, want.output, want.attentionWeights, got].forEach((x) => x.dispose());
  });

  it.each(['cpu', 'wasm'] as const)('checks its inputs as scaledDotProductAttention does, naming itself (%s)', async (backend) => {
    await useBackend(backend);
    const [q, k, v] = [zeros([2, 3, 4, 8]), zeros([2, 3, 6, 8]), zeros([2, 3, 5, 8])];
    const error = thrown(() => scaledDotProductAttentionOutput(q, k, v));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("scaledDotProductAttentionOutput: 'value' must be [B, H, S, Dv] with B, H, S = 2, 3, 6 (from 'query' and 'key'); received [2, 3, 5, 8].");
    const mask = ones([2, 1, 1, 5], 'bool');
    expect(thrown(() => scaledDotProductAttentionOutput(q, k, zeros([2, 3, 6, 8]), { mask })).message).toContain("scaledDotProductAttentionOutput: 'mask' must be broadcastable to [B, H, T, S] = [2, 3, 4, 6]");
    expect(thrown(() => scaledDotProductAttentionOutput(q, zeros([2, 3, 6, 7]), zeros([2, 3, 6, 8]))).message).toBe("scaledDotProductScorer: 'key' must be the head dim of 'query' (D = 8) in its last axis; received [2, 3, 6, 7].");
    [q, k, v, mask].forEach((x) => x.dispose());
    await useBackend('cpu');
  });
});
