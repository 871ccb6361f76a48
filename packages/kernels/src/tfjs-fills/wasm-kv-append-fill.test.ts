import { concat, engine, matMul, reshape, slice, tensor, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { kernelRoute } from '../kernel-route.js';
import { wasmHeapLocation } from '../tfjs-internals.js';
import { KV_APPEND_KERNEL } from './wasm-kv-append-fill.js';

/** `[b, h, n, d]` of distinct values starting at `from`. */
function rows(shape: [number, number, number, number], from: number): Tensor {
  const size = shape.reduce((a, b) => a * b, 1);
  return tensor(Float32Array.from({ length: size }, (_, i) => from + i), shape);
}

const append = (cache: Tensor, added: Tensor, length: number, capacity: number) => engine().runKernel(KV_APPEND_KERNEL, { cache, rows: added }, { length, capacity }) as Tensor;

/** The first `length` positions of `[B, H, C, D]`. */
const first = (x: Tensor, length: number) => slice(x, 0, [x.shape[0]!, x.shape[1]!, length, x.shape[3]!]);

describe('KV_APPEND_KERNEL on wasm (a KvCache layer grown in place)', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it('grows a cache into a larger one: its first positions, then the rows, per batch and head (B = 2, H = 3)', async () => {
    const cache = rows([2, 3, 5, 4], 0); // 5 positions held, 3 of them set
    const added = rows([2, 3, 2, 4], 1000);
    const grown = append(cache, added, 3, 8);
    expect(grown.shape).toEqual([2, 3, 8, 4]);
    expect(grown.dataId).not.toBe(cache.dataId);
    const want = concat([first(cache, 3), added], 2);
    const got = first(grown, 5);
    expect(Array.from(await got.data())).toEqual(Array.from(await want.data()));
    [cache, added, grown, want, got].forEach((t) => t.dispose());
  });

  it('writes into the cache it is given when it has room and holds its data alone: the output takes over its memory as a new tensor', async () => {
    const start = rows([1, 2, 3, 2], 0);
    const cache = append(start, start, 0, 6); // a new [1, 2, 6, 2] holding 3 positions
    start.dispose();
    const held = first(cache, 3);
    const before = Array.from(await held.data());
    held.dispose();
    const at = wasmHeapLocation(cache)!.offset;
    const step = rows([1, 2, 1, 2], 500);
    const next = append(cache, step, 3, 6);
    expect(wasmHeapLocation(next)!.offset).toBe(at); // no new memory: the rows were written in place
    expect(next.dataId).not.toBe(cache.dataId); // ... under a new tensor: tfjs-wasm never sees a tensor's bytes change
    cache.dispose();
    const want = [...before.slice(0, 6), 500, 501, ...before.slice(6), 502, 503]; // head 0: 3 positions + 1, head 1 the same
    const got = first(next, 4);
    expect(Array.from(await got.data())).toEqual(want);
    [next, step, got].forEach((t) => t.dispose());
  });

  it('a product cached by tfjs-wasm for the cache before a write in place sees the written rows after it', async () => {
    const start = rows([1, 1, 3, 2], 1);
    const cache = append(start, start, 0, 4); // [1, 1, 4, 2], 3 positions of 4 set
    start.dispose();
    const ones = tensor([[1, 1, 1, 1]]);
    const before = tidy(() => matMul(ones, reshape(cache, [4, 2]))); // the column sums, with the unset row: XNNPACK packs the operand once
    before.dispose();
    const step = rows([1, 1, 1, 2], 100);
    const next = append(cache, step, 3, 4); // now full
    cache.dispose();
    const sums = tidy(() => matMul(ones, reshape(next, [4, 2])));
    expect(Array.from(await sums.data())).toEqual([1 + 3 + 5 + 100, 2 + 4 + 6 + 101]);
    [ones, step, next, sums].forEach((t) => t.dispose());
  });

  it('copies instead when another tensor shares the cache\'s data, which stays as it was', async () => {
    const start = rows([1, 1, 2, 2], 0);
    const cache = append(start, start, 0, 4);
    start.dispose();
    const alias = cache.clone(); // a second holder of the same bytes
    const seen = Array.from(await alias.data()).slice(0, 4);
    const step = rows([1, 1, 1, 2], 9);
    const next = append(cache, step, 2, 4);
    expect(next.dataId).not.toBe(cache.dataId);
    expect(Array.from(await first(alias, 2).data())).toEqual(seen);
    expect(Array.from(await first(next, 3).data())).toEqual([...seen, 9, 10]);
    [cache, alias, next, step].forEach((t) => t.dispose());
  });

  it('leaks nothing, refuses rows that do not fit the cache, and is routed only outside gradient recording', async () => {
    const start = rows([1, 2, 2, 4], 0);
    const cache = append(start, start, 0, 4);
    const one = rows([1, 2, 1, 4], 7);
    expect(await leaksOf(() => append(cache, one, 2, 8).dispose())).toEqual({ tensors: 0, bytes: 0 });
    const wide = rows([1, 2, 1, 5], 0);
    expect(() => append(cache, wide, 2, 4)).toThrow(InvalidArgumentError);
    expect(() => append(cache, wide, 2, 4)).toThrow("AttnkitKvAppend: 'rows' must be float32 [B, H, T, D] with B, H, D = 1, 2, 4 (from a float32 'cache'); received float32 [1, 2, 1, 5].");
    const step = rows([1, 2, 3, 4], 0);
    expect(() => append(cache, step, 2, 4)).toThrow("'attrs' must be integers 0 ≤ length ≤ 4 (the cache's positions) and capacity ≥ length + 3; received length=2, capacity=4.");
    expect(kernelRoute('kvAppend', [cache]).useKernel).toBe(true);
    [start, cache, one, wide, step].forEach((t) => t.dispose());
  });
});
