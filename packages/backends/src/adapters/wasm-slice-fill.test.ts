import { slice, tensor, tensor1d, tensor2d, tidy, type DataType, type Rank, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf, seededIntegers } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';

/** The slice computed element by element from the flat values: the independent reference. */
function sliceReference(values: ArrayLike<number>, shape: number[], begin: number[], size: number[]): number[] {
  const out: number[] = [];
  const strides = shape.map((_, a) => shape.slice(a + 1).reduce((p, s) => p * s, 1));
  const total = size.reduce((p, s) => p * s, 1);
  for (let flat = 0; flat < total; flat++) {
    let rest = flat;
    let source = 0;
    for (let a = shape.length - 1; a >= 0; a--) {
      source += (begin[a]! + (rest % size[a]!)) * strides[a]!;
      rest = Math.floor(rest / size[a]!);
    }
    out.push(values[source]!);
  }
  return out;
}

describe('wasm Slice fill (heap to heap)', () => {
  it('equals an element-by-element slice for 300 random shapes (rank 1–6), begins and sizes, in float32, int32 and bool', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain('Slice');
    const next = seededIntegers(7);
    for (let trial = 0; trial < 300; trial++) {
      const rank = 1 + next(6);
      const shape = Array.from({ length: rank }, () => 1 + next(5));
      const begin = shape.map((s) => next(s));
      const size = shape.map((s, a) => next(s - begin[a]!) + (next(4) === 0 ? 0 : 1)); // some empty slices
      const dtype = (['float32', 'int32', 'bool'] as DataType[])[trial % 3]!;
      const count = shape.reduce((p, s) => p * s, 1);
      const values = Array.from({ length: count }, (_, i) => (dtype === 'bool' ? (i * 7) % 3 === 0 : dtype === 'int32' ? i - 50 : i * 0.25 - 3)).map(Number);
      const x = tensor(values, shape, dtype);
      const y = slice(x, begin, size);
      expect({ trial, shape: y.shape, dtype: y.dtype, values: Array.from(await y.data()) }).toEqual({
        trial,
        shape: size,
        dtype,
        values: sliceReference(values, shape, begin, size),
      });
      [x, y].forEach((t) => t.dispose());
    }
  });

  it('takes -1 sizes ("to the end"), the contiguous q/k/v split of [3, B·T, E] and x[:, 0] of [B, T, E]; leaks nothing', async () => {
    await useBackend('wasm');
    const values = Array.from({ length: 3 * 4 * 5 }, (_, i) => i);
    const x = tensor(values, [3, 4, 5]);
    const cases: Array<[number[], number[]]> = [
      [[1, 0, 0], [1, -1, -1]], // one of three stacked projections: one copy
      [[0, 0, 0], [3, 1, 5]], // x[:, 0]: three rows
      [[2, 1, 3], [-1, 2, -1]],
    ];
    for (const [begin, size] of cases) {
      const y = slice(x, begin, size);
      const resolved = size.map((s, a) => (s === -1 ? x.shape[a]! - begin[a]! : s));
      expect(Array.from(await y.data())).toEqual(sliceReference(values, [3, 4, 5], begin, resolved));
      y.dispose();
    }
    expect(await leaksOf(() => tidy(() => slice(x as Tensor<Rank.R3>, [1, 0, 0], [1, 4, 5])).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
  });

  it('throws for a slice that runs past the input, as the cpu kernel does, instead of reading the heap beyond it', async () => {
    for (const backend of ['cpu', 'wasm']) {
      await useBackend(backend);
      expect(() => slice(tensor2d([[1, 2, 3], [4, 5, 6]]), [1, 1], [2, 2])).toThrow(/begin\[0\] \+ size\[0\] \(3\) would overflow input\.shape\[0\] \(2\)/);
      expect(() => slice(tensor1d([1, 2, 3]), [2], [5])).toThrow(/would overflow input\.shape\[0\] \(3\)/);
    }
  });
});
