import { tensor, type Tensor } from '@tensorflow/tfjs-core';

/** A tensor as the PyTorch fixture script writes it. */
export interface TensorSpec {
  readonly shape: readonly number[];
  readonly dtype: 'float32' | 'int32' | 'bool';
  /** Values; JSON has no infinities or NaN, so those are the strings `'Infinity'`, `'-Infinity'`, `'NaN'`. */
  readonly data: ReadonlyArray<number | 'Infinity' | '-Infinity' | 'NaN'>;
}

/** One case of a fixture file: named inputs, optional weights, named expected outputs. */
export interface FixtureCase {
  readonly inputs: Readonly<Record<string, TensorSpec | number | number[] | boolean | string | null>>;
  readonly weights?: Readonly<Record<string, TensorSpec>>;
  readonly outputs: Readonly<Record<string, TensorSpec>>;
}

/** A fixture file written by `tooling/reference/make_fixtures.py`. */
export interface FixtureFile {
  readonly generator: string;
  readonly torch: string;
  readonly cases: Readonly<Record<string, FixtureCase>>;
}

/**
 * Builds the tfjs tensor a fixture describes (booleans stored as 0/1 become a bool tensor).
 *
 * @example
 * const query = fixtureTensor(fixture.cases['dot ...']!.inputs['query'] as TensorSpec);
 */
export function fixtureTensor(spec: TensorSpec): Tensor {
  return tensor(fixtureValues(spec), spec.shape as number[], spec.dtype);
}

/** The values of a fixture tensor as numbers (the strings for ±Infinity and NaN converted). */
export function fixtureValues(spec: TensorSpec): number[] {
  return spec.data.map(Number);
}

/** The spec of a named fixture input, or a thrown error naming what is missing. */
export function specOf(record: FixtureCase['inputs'] | FixtureCase['weights'], name: string): TensorSpec {
  const value = record?.[name];
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`fixture has no tensor '${name}'`);
  }
  return value as TensorSpec;
}

/** A named rank-2 fixture input (`[B, T]` ids or a mask) as nested rows, as encoders take them. */
export function fixtureRows(record: FixtureCase['inputs'], name: string): number[][] {
  const spec = specOf(record, name);
  if (spec.shape.length !== 2) throw new Error(`fixture tensor '${name}' has shape [${spec.shape.join(', ')}]; rows need rank 2`);
  const [rows, width] = spec.shape as [number, number];
  const values = fixtureValues(spec);
  return Array.from({ length: rows }, (_, b) => values.slice(b * width, (b + 1) * width));
}
