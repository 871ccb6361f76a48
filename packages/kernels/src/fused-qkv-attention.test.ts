import { greater, ones, randomNormal, reshape, slice, tensor, tidy, transpose, variable, variableGrads, sum, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { fusedAttention } from './fused-attention.js';
import { fusedAttentionReference } from './fused-attention-reference.js';
import { fusedAttentionTokens, fusedQkvAttention } from './fused-qkv-attention.js';
import { InferenceOnlyError } from './inference-only-error.js';

beforeAll(() => useTfjsBackend('cpu'));

/** The unfused way: slice q, k, v out of `qkv [B, T, 3E]`, split heads, fusedAttention, merge heads. */
function unfused(qkv: Tensor, heads: number, options: Parameters<typeof fusedAttention>[3] = {}): Tensor {
  return tidy(() => {
    const [b, t, width3] = qkv.shape as [number, number, number];
    const e = width3 / 3;
    const split = (i: number) => transpose(reshape(slice(qkv, [0, 0, i * e], [-1, -1, e]), [b, t, heads, e / heads]), [0, 2, 1, 3]); // [B, H, T, D]
    const out = fusedAttention(split(0), split(1), split(2), options); // [B, H, T, D]
    return reshape(transpose(out, [0, 2, 1, 3]), [b, t, e]);
  });
}

const CASES = [
  { label: 'MiniLM-like head: B = 2, T = 33, H = 4, D = 32, padding mask', sizes: [2, 33, 4, 32], mask: [2, 1, 1, 33] },
  { label: 'odd sizes: B = 3, T = 5, H = 3, D = 6, no mask', sizes: [3, 5, 3, 6] },
  { label: 'per-head bias [1, H, T, T] and causal mask [1, 1, T, T]', sizes: [1, 9, 2, 8], mask: [1, 1, 9, 9], bias: [1, 2, 9, 9] },
] as const;

describe.each(['cpu', 'wasm'] as const)('fusedQkvAttention on %s', (backend) => {
  beforeAll(() => useTfjsBackend(backend));
  afterAll(() => useTfjsBackend('cpu'));

  it.each(CASES.map((c, i) => [c.label, i] as const))('equals split heads + fusedAttention + merge heads bit for bit, per kernel: %s', (_, index) => {
    const c = CASES[index]!;
    const [b, t, h, d] = c.sizes;
    const qkv = randomNormal([b, t, 3 * h * d], 0, 1.5, 'float32', 40 + index);
    const mask = 'mask' in c ? tidy(() => greater(randomNormal([...c.mask], 0, 1, 'float32', 7), -0.8)) : undefined;
    const bias = 'bias' in c ? randomNormal([...c.bias], 0, 1, 'float32', 8) : undefined;
    for (const kernel of ['simd', 'js'] as const) {
      const [want, got] = [unfused(qkv, h, { mask, bias, kernel }), fusedQkvAttention(qkv, h, { mask, bias, kernel })];
      expect(got.shape).toEqual([b, t, h * d]);
      expect(Array.from(got.dataSync()), kernel).toEqual(Array.from(want.dataSync()));
      [want, got].forEach((x) => x.dispose());
    }
    [qkv, mask, bias].forEach((x) => x?.dispose());
  });

  it('fusedAttentionTokens equals split heads + fusedAttention + merge heads bit for bit, cross-attention with S ≠ T and Dv ≠ D', () => {
    const [b, t, s, h, d, dv] = [2, 7, 11, 3, 8, 4];
    const [q, k, v] = [randomNormal([b, t, h * d], 0, 1, 'float32', 1), randomNormal([b, s, h * d], 0, 1, 'float32', 2), randomNormal([b, s, h * dv], 0, 1, 'float32', 3)];
    const mask = tidy(() => greater(randomNormal([b, 1, 1, s], 0, 1, 'float32', 4), -0.5));
    for (const kernel of ['simd', 'js'] as const) {
      const want = tidy(() => {
        const split = (x: Tensor) => transpose(reshape(x, [b, x.shape[1]!, h, x.shape[2]! / h]), [0, 2, 1, 3]);
        return reshape(transpose(fusedAttention(split(q), split(k), split(v), { mask, kernel }), [0, 2, 1, 3]), [b, t, h * dv]);
      });
      const got = fusedAttentionTokens(q, k, v, h, { mask, kernel });
      expect(got.shape).toEqual([b, t, h * dv]);
      expect(Array.from(got.dataSync()), kernel).toEqual(Array.from(want.dataSync()));
      [want, got].forEach((x) => x.dispose());
    }
    expect(thrown(() => fusedAttentionTokens(q, k, v, 5)).message).toBe("fusedAttentionTokens: 'query' must be a last dimension H·D divisible by numHeads = 5; received [2, 7, 24].");
    expect(thrown(() => fusedAttentionTokens(q, q, v, h)).message).toContain("'value' must be [B, S, H·Dv] with B, S = 2, 7");
    expect(thrown(() => fusedAttentionTokens(q, v, v, h)).message).toContain("'key' must be [B, S, H·D] with B, H·D = 2, 24");
    [q, k, v, mask].forEach((x) => x.dispose());
  });

  it('the reference with a token-major layout equals the reference on head-major copies', () => {
    const [b, t, h, d] = [2, 3, 2, 4];
    const qkv = Float32Array.from({ length: b * t * 3 * h * d }, (_, i) => Math.sin(i * 0.7));
    const headMajor = (part: number) => Float32Array.from({ length: b * h * t * d }, (_, i) => {
      const [bi, hi, ti, di] = [Math.floor(i / (h * t * d)), Math.floor(i / (t * d)) % h, Math.floor(i / d) % t, i % d];
      return qkv[(bi * t + ti) * 3 * h * d + part * h * d + hi * d + di] as number;
    });
    const sizes = { batch: b, heads: h, queryLength: t, keyLength: t, headDim: d, valueDim: d, scale: 0.5 };
    const want = fusedAttentionReference({ ...sizes, query: headMajor(0), key: headMajor(1), value: headMajor(2) }); // [B, H, T, D]
    const rows = { batch: t * 3 * h * d, heads: d, rows: 3 * h * d };
    const got = fusedAttentionReference({ ...sizes, query: qkv, key: qkv, value: qkv, layout: { query: { offset: 0, ...rows }, key: { offset: h * d, ...rows }, value: { offset: 2 * h * d, ...rows }, out: { offset: 0, batch: t * h * d, heads: d, rows: h * d } } }); // [B, T, H, D]
    for (let i = 0; i < want.length; i++) {
      const [bi, hi, ti, di] = [Math.floor(i / (h * t * d)), Math.floor(i / (t * d)) % h, Math.floor(i / d) % t, i % d];
      expect(got[((bi * t + ti) * h + hi) * d + di]).toBe(want[i]);
    }
  });

  it('leaks nothing, with and without mask and bias', async () => {
    const qkv = randomNormal([2, 5, 3 * 3 * 8], 0, 1, 'float32', 1);
    const [mask, bias] = [ones([2, 1, 1, 5], 'bool'), zeros([1, 3, 5, 5])];
    expect(await leaksOf(() => fusedQkvAttention(qkv, 3).dispose())).toEqual({ tensors: 0, bytes: 0 });
    expect(await leaksOf(() => fusedQkvAttention(qkv, 3, { mask, bias }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [qkv, mask, bias].forEach((x) => x.dispose());
  });
});

describe('fusedQkvAttention', () => {
  it('returns zeros [B, T, E] for zero sizes', () => {
    const empty = fusedQkvAttention(zeros([0, 4, 12]), 2);
    expect(empty.shape).toEqual([0, 4, 4]);
    empty.dispose();
  });

  it('refuses bad shapes, head counts, masks and options with typed errors', () => {
    const qkv = zeros([2, 5, 18]);
    const e1 = thrown(() => fusedQkvAttention(qkv, 4));
    expect(e1).toBeInstanceOf(InvalidArgumentError);
    expect(e1.message).toBe("fusedQkvAttention: 'qkv' must be a last dimension 3·H·D divisible by 3 · numHeads = 12; received [2, 5, 18].");
    expect(thrown(() => fusedQkvAttention(zeros([2, 18]), 3)).message).toContain("fusedQkvAttention: 'qkv' must be");
    expect(thrown(() => fusedQkvAttention(qkv, 0))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => fusedQkvAttention(qkv, 1.5))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => fusedQkvAttention(qkv, 3, { mask: ones([2, 1, 1, 4], 'bool') })).message).toContain("fusedQkvAttention: 'mask' must be a rank-4 bool tensor broadcastable to [B, H, T, S] = [2, 3, 5, 5]");
    expect(thrown(() => fusedQkvAttention(qkv, 3, { scale: Number.NaN })).message).toContain("'scale' must be a finite number");
    expect(thrown(() => fusedQkvAttention(qkv, 3, { heads: 3 } as never))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => fusedQkvAttention(tensor([[[1, 2, 3]]], [1, 1, 3], 'int32'), 1)).message).toContain("'qkv'");
    qkv.dispose();
  });

  it('refuses to run while a gradient is recorded', () => {
    const qkv = variable(zeros([1, 2, 6]));
    expect(thrown(() => variableGrads(() => sum(fusedQkvAttention(qkv, 1)) as never))).toBeInstanceOf(InferenceOnlyError);
    qkv.dispose();
  });
});
