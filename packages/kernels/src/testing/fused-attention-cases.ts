// Test-only helpers (left out of the published files): fused attention cases over random shapes,
// masks and biases, and the check that a kernel matches fusedAttentionReference.
import { expect } from 'vitest';
import { seededIntegers } from '@attnkit/test-utils';
import type { BroadcastRows, FusedAttentionKernel, FusedAttentionProblem } from '../fused-attention-problem.js';
import { fusedAttentionReference } from '../fused-attention-reference.js';

/** A case: sizes [B, H, T, S, D, Dv], the mask and bias shapes (or none), how large the inputs are. */
export interface FusedAttentionCase {
  readonly label: string;
  readonly sizes: readonly [number, number, number, number, number, number];
  readonly mask?: readonly [number, number, number, number];
  readonly bias?: readonly [number, number, number, number];
  /** Standard deviation of q and k (default 1): 30 gives scores in the hundreds. */
  readonly magnitude?: number;
  /** Block every key of query row 1 (for every batch and head the mask has). */
  readonly blockRow?: boolean;
}

export const FUSED_ATTENTION_CASES: readonly FusedAttentionCase[] = [
  { label: 'T≠S, D = 6, padding mask [B, 1, 1, S]', sizes: [2, 3, 5, 7, 6, 6], mask: [2, 1, 1, 7] },
  { label: 'B = 1, mask [1, 1, T, S], bias [1, H, T, S], Dv ≠ D', sizes: [1, 4, 9, 13, 8, 5], mask: [1, 1, 9, 13], bias: [1, 4, 9, 13] },
  { label: 'H = 1, mask [B, 1, T, S] with a fully masked row, D = 3', sizes: [3, 1, 4, 17, 3, 3], mask: [3, 1, 4, 17], blockRow: true },
  { label: 'no mask, bias [1, H, T, S], D = 16', sizes: [2, 2, 6, 6, 16, 16], bias: [1, 2, 6, 6] },
  { label: 'large score magnitudes (q, k ~ N(0, 30²)), padding mask', sizes: [2, 2, 7, 11, 9, 9], mask: [2, 1, 1, 11], magnitude: 30 },
  { label: 'one of everything', sizes: [1, 1, 1, 1, 1, 1] },
  { label: 'query mask [B, 1, T, 1] (whole rows blocked)', sizes: [2, 2, 5, 6, 4, 4], mask: [2, 1, 5, 1] },
  { label: 'bias [B, 1, 1, S], mask [B, H, T, S]', sizes: [2, 3, 3, 5, 7, 2], mask: [2, 3, 3, 5], bias: [2, 1, 1, 5] },
  { label: 'MiniLM-like head: T = S = 128, D = 32, padding mask', sizes: [1, 2, 128, 128, 32, 32], mask: [1, 1, 1, 128] },
  { label: 'T = 130, S = 77, D = 64, Dv = 13', sizes: [1, 1, 130, 77, 64, 13], mask: [1, 1, 130, 77], bias: [1, 1, 130, 77] },
  { label: 'S = 0 (zeros)', sizes: [1, 2, 3, 0, 4, 4] },
  { label: 'D = 0 (uniform weights)', sizes: [1, 1, 2, 3, 0, 2], mask: [1, 1, 2, 3] },
  { label: 'a decoding step: T = 1 over S = 37 cached keys, D = 64, padding mask', sizes: [2, 3, 1, 37, 64, 64], mask: [2, 1, 1, 37] },
  { label: 'a grouped decoding step: T = 3 (query heads of one key/value head), S = 201, D = 66, Dv = 11, bias, large scores', sizes: [1, 2, 3, 201, 66, 11], bias: [1, 2, 3, 201], magnitude: 30 },
  { label: 'T = 4 (a full block), S = 9, D = 5, mask [B, H, T, S] with a fully masked row', sizes: [2, 2, 4, 9, 5, 5], mask: [2, 2, 4, 9], blockRow: true },
];

/** Seeded normal-ish values (sum of uniforms), `std` times. */
export function seededNormals(length: number, seed: number, std = 1): Float32Array {
  const next = seededIntegers(seed);
  return Float32Array.from({ length }, () => ((next(10000) + next(10000) + next(10000) - 15000) / 5000) * std);
}

/** The flat data of a case (masks random with ~25% blocked, and the blocked row of `blockRow`). */
export function fusedAttentionProblem(c: FusedAttentionCase, seed: number): FusedAttentionProblem & { readonly maskValues?: Uint8Array; readonly biasValues?: Float32Array } {
  const [batch, heads, queryLength, keyLength, headDim, valueDim] = c.sizes;
  const next = seededIntegers(seed + 7);
  const rows = <V extends Uint8Array | Float32Array>(shape: readonly number[], values: V): BroadcastRows<V> => {
    const [b, h, t, s] = shape as [number, number, number, number];
    const keys = keyLength;
    const full = (s === keys ? values : (() => { const out = new (values.constructor as new (n: number) => V)(b * h * t * keys); for (let r = 0; r < b * h * t; r++) out.fill(values[r] as never, r * keys, (r + 1) * keys); return out; })());
    return { values: full, strides: [b === 1 ? 0 : h * t * keys, h === 1 ? 0 : t * keys, t === 1 ? 0 : keys] };
  };
  let maskValues: Uint8Array | undefined;
  if (c.mask !== undefined) {
    const [b, h, t, s] = c.mask;
    maskValues = Uint8Array.from({ length: b * h * t * s }, () => (next(4) === 0 ? 0 : 1));
    if (c.blockRow === true) for (let r = 0; r < b * h; r++) maskValues.fill(0, (r * t + 1) * s, (r * t + 2) * s);
  }
  const biasValues = c.bias === undefined ? undefined : seededNormals(c.bias.reduce((a, d) => a * d, 1), seed + 3, 2);
  return {
    batch, heads, queryLength, keyLength, headDim, valueDim,
    scale: Math.fround(headDim === 0 ? 1 : Math.sqrt(1 / headDim)),
    query: seededNormals(batch * heads * queryLength * headDim, seed, c.magnitude ?? 1),
    key: seededNormals(batch * heads * keyLength * headDim, seed + 1, c.magnitude ?? 1),
    value: seededNormals(batch * heads * keyLength * valueDim, seed + 2),
    mask: c.mask === undefined || maskValues === undefined ? undefined : rows(c.mask, maskValues),
    bias: c.bias === undefined || biasValues === undefined ? undefined : rows(c.bias, biasValues),
    ...(maskValues === undefined ? {} : { maskValues }),
    ...(biasValues === undefined ? {} : { biasValues }),
  };
}

/** max |got − want| / max |want| (0 when both are all zeros); NaN where they differ in NaN-ness. */
export function relativeDifference(want: ArrayLike<number>, got: ArrayLike<number>): number {
  let [difference, scale] = [0, 0];
  for (let i = 0; i < want.length; i++) {
    const [w, g] = [want[i] as number, got[i] as number];
    if (Number.isNaN(w) !== Number.isNaN(g)) return Number.NaN;
    if (Number.isNaN(w)) continue;
    difference = Math.max(difference, Math.abs(w - g));
    scale = Math.max(scale, Math.abs(w));
  }
  return scale === 0 ? difference : difference / scale;
}

/** Checks `kernel` against fusedAttentionReference on every case: within `tolerance` (relative), blocked rows exactly 0. */
export function expectKernelMatchesReference(kernel: FusedAttentionKernel, tolerance = 1e-6): number {
  FUSED_ATTENTION_CASES.forEach((c, index) => {
    const problem = fusedAttentionProblem(c, 100 + index);
    const [want, got] = [fusedAttentionReference(problem), kernel.run(problem)];
    expect(got.length, c.label).toBe(want.length);
    expect(relativeDifference(want, got), `${kernel.name}: ${c.label}`).toBeLessThanOrEqual(tolerance);
    want.forEach((w, i) => { if (w === 0) expect(got[i], `${c.label}: exact zero at ${i}`).toBe(0); });
  });
  return FUSED_ATTENTION_CASES.length;
}
