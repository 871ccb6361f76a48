import fc from 'fast-check';
import { tensor, type DataType, type Tensor } from '@tensorflow/tfjs-core';

/** A tensor to make for one fuzz case: its shape, dtype, a seed for its values, and whether it arrives disposed. */
export interface TensorSpec {
  readonly shape: readonly number[];
  readonly dtype: 'bool' | 'int32' | 'float32';
  readonly seed: number;
  readonly disposed: boolean;
}

/** The attention sizes a fuzz case aims at: scores `[B, H, T, S]`. */
export interface Sizes {
  readonly batch: number;
  readonly heads: number;
  readonly queryLength: number;
  readonly keyLength: number;
}

/** A dimension: 1 (broadcast), one of the target's sizes, or any small size (0 included). */
type DimensionSpec = 1 | keyof Sizes | number;

const dimensionSpec: fc.Arbitrary<DimensionSpec> = fc.oneof(
  { arbitrary: fc.constantFrom<DimensionSpec>(1, 'batch', 'heads', 'queryLength', 'keyLength'), weight: 6 },
  { arbitrary: fc.integer({ min: 0, max: 5 }), weight: 1 },
);

/** The size a dimension spec stands for, given the target. */
function resolveDimension(spec: DimensionSpec, sizes: Sizes): number {
  return typeof spec === 'number' ? spec : sizes[spec];
}

/** A tensor spec of rank 0-5 whose dimensions are drawn by `dimensionSpec` against `sizes`. */
export function tensorSpec(sizes: Sizes, dtypes: fc.Arbitrary<TensorSpec['dtype']>, ranks: { min: number; max: number } = { min: 0, max: 5 }): fc.Arbitrary<TensorSpec> {
  return fc.record({
    shape: fc.array(dimensionSpec, { minLength: ranks.min, maxLength: ranks.max }).map((dims) => dims.map((d) => resolveDimension(d, sizes))),
    dtype: dtypes,
    seed: fc.integer(),
    disposed: fc.oneof({ arbitrary: fc.constant(false), weight: 20 }, { arbitrary: fc.constant(true), weight: 1 }),
  });
}

/**
 * A tensor spec laid out along `axes` (e.g. `['batch', 'heads', 'queryLength', 'keyLength']`): each
 * dimension mostly the axis's size or 1, sometimes another of the sizes or 0 — so that valid and
 * almost-valid inputs are both common.
 */
export function alignedSpec<K extends string>(sizes: Readonly<Record<K, number>>, axes: readonly K[], dtypes: fc.Arbitrary<TensorSpec['dtype']>): fc.Arbitrary<TensorSpec> {
  const others = fc.constantFrom(0, ...(Object.values(sizes) as number[]));
  const dimension = (axis: K) => fc.oneof({ arbitrary: fc.constant(sizes[axis]), weight: 12 }, { arbitrary: fc.constant(1), weight: 4 }, { arbitrary: others, weight: 1 });
  return fc.record({
    shape: fc.tuple(...axes.map(dimension)),
    dtype: dtypes,
    seed: fc.integer(),
    disposed: fc.oneof({ arbitrary: fc.constant(false), weight: 20 }, { arbitrary: fc.constant(true), weight: 1 }),
  });
}

/** Deterministic values for a spec: bools about half true, ints in [-2, 2], floats in [-4, 4). */
export function specValues(spec: TensorSpec): number[] {
  const size = spec.shape.reduce((a, b) => a * b, 1);
  let state = spec.seed | 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) | 0; // an LCG: cheap and reproducible from the seed
    return (state >>> 8) / 2 ** 24;
  };
  return Array.from({ length: size }, () => (spec.dtype === 'bool' ? (next() < 0.5 ? 1 : 0) : spec.dtype === 'int32' ? Math.floor(next() * 5) - 2 : next() * 8 - 4));
}

/** The tensor a spec describes (already disposed if the spec says so: a use-after-dispose input). */
export function makeTensor(spec: TensorSpec): Tensor {
  const t = tensor(specValues(spec), [...spec.shape], spec.dtype as DataType);
  if (spec.disposed) t.dispose();
  return t;
}
