import { concat, engine, reshape, slice, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { seededNormals } from '../testing/fused-attention-cases.js';
import { wasmHeapLocation } from '../tfjs-internals.js';
import { ATTENTION_ROWS_KERNEL } from './wasm-attention-rows-fill.js';
import { DECODE_ATTENTION_KERNEL } from './wasm-decode-attention-fill.js';
import { KV_APPEND_KERNEL } from './wasm-kv-append-fill.js';
import { ROTARY_KERNEL } from './wasm-rotary-fill.js';
import { RMS_NORM_KERNEL } from './wasm-rms-norm-fill.js';

interface Case {
  readonly label: string;
  readonly batch: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly dim: number;
  readonly valueDim: number;
  readonly rotary: number; // 0: none
  readonly length: number;
  readonly stored: number;
  readonly capacity: number;
  readonly masked: boolean;
  readonly maskOfOne?: boolean; // a mask [1, 1, 1, S] for every sequence
  readonly shared?: boolean; // the caches' data shared with a clone: copied, never written in place
  readonly normed?: boolean; // Qwen3's q/k norms: each head RMSNorm-ed over D before rotary
}

const CASES: readonly Case[] = [
  { label: 'SmolLM-shaped (H 9, Hkv 3, D 64), written in place', batch: 1, heads: 9, kvHeads: 3, dim: 64, valueDim: 64, rotary: 64, length: 37, stored: 64, capacity: 64, masked: false },
  { label: 'B 2 with a padded position, partial rotary (R 8 of D 16), grown', batch: 2, heads: 4, kvHeads: 4, dim: 16, valueDim: 16, rotary: 8, length: 20, stored: 21, capacity: 48, masked: true },
  { label: 'no rotary (GPT-2), multi-query (Hkv 1), Dv ≠ D, first position', batch: 3, heads: 4, kvHeads: 1, dim: 12, valueDim: 20, rotary: 0, length: 0, stored: 16, capacity: 16, masked: false },
  { label: 'caches shared with clones (copied), a mask of batch 1, the last free position', batch: 2, heads: 6, kvHeads: 2, dim: 8, valueDim: 8, rotary: 8, length: 15, stored: 16, capacity: 16, masked: true, maskOfOne: true, shared: true },
  { label: 'Qwen3-shaped q/k norms (H 8, Hkv 2, D 32), B 2 with a padded position, in place', batch: 2, heads: 8, kvHeads: 2, dim: 32, valueDim: 32, rotary: 32, length: 11, stored: 16, capacity: 16, masked: true, normed: true },
];

/** A case's inputs: one fused q/k/v row per sequence [B, 1, H·D + Hkv·D + Hkv·Dv], caches, cos/sin, mask. */
function inputs(c: Case, seed: number) {
  const width = c.heads * c.dim + c.kvHeads * (c.dim + c.valueDim);
  const qkv = tensor(seededNormals(c.batch * width, seed), [c.batch, 1, width]);
  const cacheKey = tensor(seededNormals(c.batch * c.kvHeads * c.stored * c.dim, seed + 1), [c.batch, c.kvHeads, c.stored, c.dim]);
  const cacheValue = tensor(seededNormals(c.batch * c.kvHeads * c.stored * c.valueDim, seed + 2), [c.batch, c.kvHeads, c.stored, c.valueDim]);
  const angles = seededNormals(c.batch * c.rotary, seed + 3);
  const rotary = c.rotary === 0 ? {} : { cos: tensor(angles.map(Math.cos), [c.batch, 1, c.rotary]), sin: tensor(angles.map(Math.sin), [c.batch, 1, c.rotary]) };
  const keyLength = c.length + 1;
  const maskBatch = c.maskOfOne === true ? 1 : c.batch;
  const mask = c.masked ? { mask: tensor(Array.from({ length: maskBatch * keyLength }, (_, i) => (i % keyLength === 3 && (i >= keyLength || c.maskOfOne === true) ? 0 : 1)), [maskBatch, 1, 1, keyLength], 'bool') } : {};
  const norms = c.normed === true ? { queryNorm: tensor(seededNormals(c.dim, seed + 4).map((w) => 1 + w / 2), [c.dim]), keyNorm: tensor(seededNormals(c.dim, seed + 5).map((w) => 1 + w / 2), [c.dim]) } : {};
  return { qkv, cacheKey, cacheValue, ...rotary, ...mask, ...norms, width };
}

const attrs = (c: Case) => ({ heads: c.heads, queryAt: 0, keyAt: c.heads * c.dim, valueAt: (c.heads + c.kvHeads) * c.dim, length: c.length, capacity: c.capacity, scale: 1 / Math.sqrt(c.dim), ...(c.normed === true ? { normEpsilon: 1e-6 } : {}) });

/** The composed path: the heads cut out, their q/k norms (RMS_NORM_KERNEL over D), rotary on q and k, the two cache appends, the rows over the grouped query. */
function composed(c: Case, x: ReturnType<typeof inputs>): Tensor[] {
  const { qkv, cacheKey, cacheValue, cos, sin, mask, queryNorm, keyNorm } = x as ReturnType<typeof inputs> & { cos?: Tensor; sin?: Tensor; mask?: Tensor; queryNorm?: Tensor; keyNorm?: Tensor };
  const a = attrs(c);
  const cut = (at: number, size: number) => slice(qkv, [0, 0, at], [c.batch, 1, size]);
  const normed = (t: Tensor, count: number, weight: Tensor | undefined) => (weight === undefined ? t : (engine().runKernel(RMS_NORM_KERNEL, { x: reshape(t, [c.batch, 1, count, c.dim]), weight }, { epsilon: 1e-6 }) as Tensor));
  const heads = (t: Tensor, count: number, width: number) => (cos === undefined ? reshape(t, [c.batch, count, 1, width]) : (engine().runKernel(ROTARY_KERNEL, { x: t, cos, sin: sin! }, { heads: count }) as Tensor));
  const query = heads(normed(cut(0, c.heads * c.dim), c.heads, queryNorm), c.heads, c.dim);
  const key = heads(normed(cut(a.keyAt, c.kvHeads * c.dim), c.kvHeads, keyNorm), c.kvHeads, c.dim);
  const value = reshape(cut(a.valueAt, c.kvHeads * c.valueDim), [c.batch, c.kvHeads, 1, c.valueDim]);
  const append = (cache: Tensor, rows: Tensor) => engine().runKernel(KV_APPEND_KERNEL, { cache, rows }, { length: c.length, capacity: c.capacity }) as Tensor;
  const [keyCopy, valueCopy] = [cacheKey.clone(), cacheValue.clone()]; // sharing the caches' data: appended into new memory, the decode kernel's inputs left as they are
  const [keys, values] = [append(keyCopy, key), append(valueCopy, value)];
  [keyCopy, valueCopy, key, value].forEach((t) => t.dispose());
  const grouped = reshape(query, [c.batch, c.kvHeads, c.heads / c.kvHeads, c.dim]);
  const out = engine().runKernel(ATTENTION_ROWS_KERNEL, { query: grouped, key: keys, value: values, ...(mask === undefined ? {} : { mask }) }, { scale: a.scale, keyLength: c.length + 1 }) as Tensor;
  return [reshape(out, [c.batch, 1, c.heads * c.valueDim]), keys, values];
}

const firstPositions = (t: Tensor, n: number) => slice(t, 0, [t.shape[0]!, t.shape[1]!, n, t.shape[3]!]);

describe('DECODE_ATTENTION_KERNEL on wasm (a decoding step\'s attention in one kernel)', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it.each(CASES)('gives the composed path\'s numbers bit for bit, and the caches with the step\'s row: $label', async (c) => {
    const x = inputs(c, 11);
    const { qkv, cacheKey, cacheValue, width, ...rest } = x;
    const want = composed(c, x);
    const inPlaceAt = wasmHeapLocation(cacheKey)!.offset;
    const clones = c.shared === true ? [cacheKey.clone(), cacheValue.clone()] : [];
    const before = await Promise.all(clones.map((t) => t.data()));
    const got = engine().runKernel(DECODE_ATTENTION_KERNEL, { query: qkv, key: qkv, value: qkv, cacheKey, cacheValue, ...rest }, attrs(c)) as Tensor[];
    for (const [i, clone] of clones.entries()) expect(Array.from(await clone.data()), 'a clone of the cache keeps its values').toEqual(Array.from(before[i]!));
    if (c.shared === true) expect(wasmHeapLocation(got[1]!)!.offset).not.toBe(inPlaceAt); // new memory: the data had another owner
    clones.forEach((t) => t.dispose());
    expect(got.map((t) => t.shape)).toEqual([[c.batch, 1, c.heads * c.valueDim], [c.batch, c.kvHeads, c.capacity, c.dim], [c.batch, c.kvHeads, c.capacity, c.valueDim]]);
    expect(Array.from(await got[0]!.data())).toEqual(Array.from(await want[0]!.data()));
    for (const i of [1, 2]) {
      const [a, b] = [firstPositions(got[i]!, c.length + 1), firstPositions(want[i]!, c.length + 1)];
      expect(Array.from(await a.data()), `cache ${i}`).toEqual(Array.from(await b.data()));
      [a, b].forEach((t) => t.dispose());
    }
    if (c.capacity === c.stored && c.shared !== true) expect(wasmHeapLocation(got[1]!)!.offset).toBe(inPlaceAt); // the row written into the cache's own memory
    cacheKey.dispose(); // no data any more when written in place: disposing it is all that is left
    cacheValue.dispose();
    [qkv, ...Object.values(rest), ...want, ...got].forEach((t) => (t as Tensor).dispose());
    expect(width).toBeGreaterThan(0);
  });

  it('leaves no tensor behind', async () => {
    const c = CASES[1]!;
    expect(await leaksOf(() => {
      const { qkv, cacheKey, cacheValue, width: _, ...rest } = inputs(c, 5);
      const got = engine().runKernel(DECODE_ATTENTION_KERNEL, { query: qkv, key: qkv, value: qkv, cacheKey, cacheValue, ...rest }, attrs(c)) as Tensor[];
      [qkv, cacheKey, cacheValue, ...Object.values(rest), ...got].forEach((t) => (t as Tensor).dispose());
    })).toEqual({ tensors: 0, bytes: 0 });
  });

  it.each([
    ['two new positions (T = 2)', (x: ReturnType<typeof inputs>) => ({ query: concat([x.qkv, x.qkv], 1) }), {}, /query/],
    ['heads not a multiple of Hkv', () => ({}), { heads: 8 }, /heads/],
    ['a key column past the row', () => ({}), { keyAt: 10_000 }, /keyAt/],
    ['length past the stored positions', () => ({}), { length: 65 }, /length/],
    ['capacity without room for the row', () => ({}), { capacity: 37 }, /capacity/],
    ['a query norm without a key norm', () => ({ queryNorm: tensor(new Float32Array(64).fill(1), [64]) }), { normEpsilon: 1e-6 }, /queryNorm and keyNorm both float32 \[D\] with D = 64/],
    ['q/k norms of another D', () => ({ queryNorm: tensor(new Float32Array(32).fill(1), [32]), keyNorm: tensor(new Float32Array(32).fill(1), [32]) }), { normEpsilon: 1e-6 }, /queryNorm/],
    ['q/k norms without their eps', () => ({ queryNorm: tensor(new Float32Array(64).fill(1), [64]), keyNorm: tensor(new Float32Array(64).fill(1), [64]) }), {}, /normEpsilon/],
  ] as const)('refuses %s with a typed error naming it', (_label, change, attrChange, pattern) => {
    const c = CASES[0]!;
    const x = inputs(c, 3);
    const { qkv, cacheKey, cacheValue, width: _, ...rest } = x;
    const changed: Record<string, Tensor> = change(x);
    let error: unknown;
    try {
      engine().runKernel(DECODE_ATTENTION_KERNEL, { query: qkv, key: qkv, value: qkv, cacheKey, cacheValue, ...rest, ...changed }, { ...attrs(c), ...attrChange });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(String(error)).toMatch(pattern);
    [qkv, cacheKey, cacheValue, ...Object.values(rest), ...Object.values(changed)].forEach((t) => (t as Tensor).dispose());
  });
});
