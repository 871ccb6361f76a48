import { broadcastTo, scalar, tensor, tile, where, type DataType } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf, seededIntegers } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';

/** The tiled values computed element by element: the independent reference. */
function tileReference(values: number[], shape: number[], reps: number[]): number[] {
  const outShape = shape.map((s, a) => s * reps[a]!);
  const total = outShape.reduce((p, s) => p * s, 1);
  const out: number[] = [];
  for (let flat = 0; flat < total; flat++) {
    let rest = flat;
    let source = 0;
    let stride = 1;
    for (let a = shape.length - 1; a >= 0; a--) {
      source += ((rest % outShape[a]!) % shape[a]!) * stride;
      rest = Math.floor(rest / outShape[a]!);
      stride *= shape[a]!;
    }
    out.push(values[source]!);
  }
  return out;
}

describe('wasm Tile fill (block copies, doubled)', () => {
  it('equals an element-by-element tile for 300 random shapes (rank 1–5) and reps (0–9), in float32, int32 and bool', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain('Tile');
    const next = seededIntegers(11);
    for (let trial = 0; trial < 300; trial++) {
      const shape = Array.from({ length: 1 + next(5) }, () => 1 + next(4));
      const reps = shape.map(() => (next(10) === 0 ? 0 : 1 + next(9 - shape.length)));
      const dtype = (['float32', 'int32', 'bool'] as DataType[])[trial % 3]!;
      const values = Array.from({ length: shape.reduce((p, s) => p * s, 1) }, (_, i) => (dtype === 'bool' ? Number(i % 3 === 1) : dtype === 'int32' ? 7 * i - 20 : i * 0.5 - 1));
      const x = tensor(values, shape, dtype);
      const y = tile(x, reps);
      expect({ trial, shape: y.shape, dtype: y.dtype, values: Array.from(await y.data()) }).toEqual({ trial, shape: shape.map((s, a) => s * reps[a]!), dtype, values: tileReference(values, shape, reps) });
      [x, y].forEach((t) => t.dispose());
    }
  });

  it("broadcasts a [B, 1, 1, S] padding mask inside where() as before, and leaks nothing", async () => {
    await useBackend('wasm');
    const mask = tensor([[1, 1, 0], [1, 0, 0]], [2, 1, 1, 3], 'bool');
    const scores = tensor(Array.from({ length: 2 * 2 * 2 * 3 }, (_, i) => i), [2, 2, 2, 3]);
    const filled = where(mask, scores, scalar(-1));
    const expected = Array.from({ length: 24 }, (_, i) => ([[1, 1, 0], [1, 0, 0]][Math.floor(i / 12)]![i % 3] === 1 ? i : -1));
    expect(Array.from(await filled.data())).toEqual(expected);
    const wide = broadcastTo(scalar(3, 'int32'), [2, 3]);
    expect(await wide.array()).toEqual([[3, 3, 3], [3, 3, 3]]);
    expect(await leaksOf(() => tile(mask, [1, 4, 128, 1]).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [mask, scores, filled, wide].forEach((t) => t.dispose());
  });
});
