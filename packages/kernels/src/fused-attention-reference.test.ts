import { describe, expect, it } from 'vitest';
import { fusedAttentionReference } from './fused-attention-reference.js';
import { thrown } from '@attnkit/test-utils';

describe('fusedAttentionReference', () => {
  // one head, T = 2, S = 3, D = 1, scale 1: scores q·k; the second key blocked for query 0, every key for query 1
  const problem = {
    batch: 1, heads: 1, queryLength: 2, keyLength: 3, headDim: 1, valueDim: 2, scale: 1,
    query: Float32Array.from([1, 2]),
    key: Float32Array.from([0, 1, 2]),
    value: Float32Array.from([1, 10, 2, 20, 3, 30]),
  };

  it('is softmax(q·kᵀ·scale)·v with blocked keys at weight 0 and a fully blocked row at zeros', () => {
    const mask = { values: Uint8Array.from([1, 0, 1, 0, 0, 0]), strides: [0, 0, 3] as const };
    const out = fusedAttentionReference({ ...problem, mask });
    const [w0, w2] = [1 / (1 + Math.exp(2)), Math.exp(2) / (1 + Math.exp(2))]; // query 0: scores 0 and 2 allowed
    expect(out[0]).toBeCloseTo(w0 * 1 + w2 * 3, 6);
    expect(out[1]).toBeCloseTo(w0 * 10 + w2 * 30, 5);
    expect(Array.from(out.subarray(2))).toEqual([0, 0]);
  });

  it('adds the bias before the softmax; a row of only −∞ allowed scores gives zeros; a NaN allowed score a NaN row', () => {
    const bias = { values: Float32Array.from([0, 0, 0, -Infinity, -Infinity, -Infinity]), strides: [0, 0, 3] as const };
    const out = fusedAttentionReference({ ...problem, bias });
    expect(Array.from(out.subarray(2))).toEqual([0, 0]);
    const nan = fusedAttentionReference({ ...problem, bias: { values: Float32Array.from([Number.NaN, 0, 0, 0, 0, 0]), strides: [0, 0, 3] as const } });
    expect(Array.from(nan.subarray(0, 2)).every(Number.isNaN)).toBe(true);
    const blockedNaN = fusedAttentionReference({ ...problem, bias: { values: Float32Array.from([Number.NaN, 0, 0, 0, 0, 0]), strides: [0, 0, 3] as const }, mask: { values: Uint8Array.from([0, 1, 1]), strides: [0, 0, 0] as const } });
    expect(Array.from(blockedNaN).some(Number.isNaN)).toBe(false);
  });

  it('refuses a scale, mask, bias or layout it cannot read, naming the field', () => {
    const message = (extra: object) => thrown(() => fusedAttentionReference({ ...problem, ...extra } as never)).message;
    expect(message({ scale: Number.NaN })).toBe("fusedAttentionReference: 'problem.scale' must be a finite number; received number NaN.");
    expect(message({ mask: null })).toContain("'problem.mask' must be absent, or { values: Uint8Array");
    expect(message({ mask: { values: Uint8Array.of(1, 1, 1), strides: [0, 0] } })).toContain("'problem.mask.strides' must be three element strides");
    expect(message({ mask: { values: Uint8Array.of(1, 1, 1), strides: [0, 0, 3] } })).toBe("fusedAttentionReference: 'problem.mask.values' must be at least 6 elements; received 3.");
    expect(message({ bias: { values: Uint8Array.of(1, 1, 1), strides: [0, 0, 0] } })).toContain("'problem.bias.values' must be an Float32Array");
    expect(message({ bias: { values: new Float32Array(3), strides: [0, -1, 0] } })).toContain("'problem.bias.strides[1]' must be an integer ≥ 0");
    expect(message({ layout: null })).toContain("'problem.layout' must be an object { query, key, value, out }");
    const contiguous = { offset: 0, batch: 0, heads: 0, rows: 2 };
    expect(message({ layout: { query: { offset: 0, batch: 0, heads: 0, rows: 1 }, key: contiguous, value: contiguous } })).toContain("'problem.layout.out' must be an operand layout");
    expect(message({ layout: { query: { ...contiguous, rows: 'x' }, key: contiguous, value: contiguous, out: contiguous } })).toContain("'problem.layout.query.rows' must be an integer ≥ 0");
    expect(message({ layout: { query: { offset: 0, batch: 0, heads: 0, rows: 1 }, key: { offset: 0, batch: 0, heads: 0, rows: 1 }, value: contiguous, out: { ...contiguous, offset: 1 } } })).toBe("fusedAttentionReference: 'problem.layout.out' must be a layout within the output's B·H·T·Dv = 4 values; received one reaching 5.");
  });
});
