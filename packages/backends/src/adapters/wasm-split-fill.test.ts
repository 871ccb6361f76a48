import { findBackend, split, tensor, type DataType } from '@tensorflow/tfjs-core';
import { describe, expect, it, vi } from 'vitest';
import { leaksOf, seededIntegers } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';

/** The pieces of `values` `[shape]` split along `axis` into `sizes`, element by element: the independent reference. */
function splitReference(values: readonly number[], shape: readonly number[], axis: number, sizes: readonly number[]): number[][] {
  const outer = shape.slice(0, axis).reduce((p, s) => p * s, 1);
  const inner = shape.slice(axis + 1).reduce((p, s) => p * s, 1);
  let start = 0;
  return sizes.map((size) => {
    const piece: number[] = [];
    for (let o = 0; o < outer; o++) for (let a = start; a < start + size; a++) for (let i = 0; i < inner; i++) piece.push(values[(o * shape[axis]! + a) * inner + i]!);
    start += size;
    return piece;
  });
}

describe('wasm SplitV fill (each piece heap to heap)', () => {
  it('equals an element-by-element split for 200 random shapes, axes (negative too) and sizes (counts, lists with -1 and 0), in float32, int32 and bool', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain('SplitV');
    const next = seededIntegers(11);
    for (let trial = 0; trial < 200; trial++) {
      const rank = 1 + next(4);
      const shape = Array.from({ length: rank }, () => 1 + next(6));
      const axis = next(rank);
      const dtype = (['float32', 'int32', 'bool'] as DataType[])[trial % 3]!;
      const count = shape.reduce((p, s) => p * s, 1);
      const values = Array.from({ length: count }, (_, i) => (dtype === 'bool' ? Number((i * 5) % 3 === 0) : dtype === 'int32' ? i - 40 : i * 0.5 - 7));
      let sizes: number[];
      let given: number | number[];
      if (trial % 2 === 0 && shape[axis]! % 2 === 0) {
        given = 2;
        sizes = [shape[axis]! / 2, shape[axis]! / 2];
      } else {
        const first = next(shape[axis]! + 1); // may be 0: an empty piece
        sizes = [first, shape[axis]! - first];
        given = trial % 3 === 0 ? [first, -1] : sizes;
      }
      const x = tensor(values, shape, dtype);
      const pieces = split(x, given, trial % 4 === 0 ? axis - rank : axis);
      const want = splitReference(values, shape, axis, sizes);
      expect({ trial, got: await Promise.all(pieces.map(async (p) => [p.shape[axis], p.dtype, Array.from(await p.data()).map(Number)])) }).toEqual({ trial, got: sizes.map((s, i) => [s, dtype, want[i]]) });
      [x, ...pieces].forEach((t) => t.dispose());
    }
  });

  it('cuts a fused q/k/v projection [B, T, 3E] without reading the heap back into JavaScript, leaking nothing', async () => {
    await useBackend('wasm');
    const qkv = tensor(Array.from({ length: 2 * 3 * 12 }, (_, i) => i), [2, 3, 12]);
    const backend = findBackend('wasm') as unknown as { readSync: (...args: unknown[]) => unknown };
    const readSync = vi.spyOn(backend, 'readSync');
    const pieces = split(qkv, [4, 4, 4], -1);
    expect(readSync).not.toHaveBeenCalled();
    readSync.mockRestore();
    expect(await pieces[1]!.array()).toEqual([[[4, 5, 6, 7], [16, 17, 18, 19], [28, 29, 30, 31]], [[40, 41, 42, 43], [52, 53, 54, 55], [64, 65, 66, 67]]]);
    expect(await leaksOf(() => split(qkv, 3, 2).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    [qkv, ...pieces].forEach((t) => t.dispose());
  });
});
