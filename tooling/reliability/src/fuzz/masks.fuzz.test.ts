import fc from 'fast-check';
import { tensor, type DataType, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { causalMask, mergeMasks, paddingMask, paddingMaskFromIds, validateMask } from '@attnkit/masks';
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from '../fuzz-budget.js';
import { broadcastShape, broadcastValue } from './broadcast.js';
import { withoutLeak } from './no-leak.js';
import { alignedSpec, makeTensor, specValues, tensorSpec, type Sizes, type TensorSpec } from './random-tensor.js';
import { isTypedError } from './typed-error.js';

beforeAll(() => useBackend('cpu'));

const small = fc.integer({ min: 1, max: 4 });
const sizes: fc.Arbitrary<Sizes> = fc.record({ batch: small, heads: small, queryLength: small, keyLength: small });
const dtypes = fc.constantFrom<TensorSpec['dtype']>('bool', 'bool', 'bool', 'bool', 'int32', 'float32');
/** Not a size: zero, negative, fractional, NaN, infinite, a string, missing. */
const notASize = fc.constantFrom<unknown>(0, -1, 2.5, Number.NaN, Infinity, '2', undefined, null);
/**
 * Sizes past the largest typed array (2^32 elements): each must be refused before anything is
 * allocated, with a typed ResourceLimitError (the fuzzer found `paddingMask([0], 2 ** 53 - 1)` and
 * `causalMask(1, 2 ** 53 - 1)` throwing an untyped RangeError; both check the memory budget now).
 */
const huge = fc.constantFrom(2 ** 33, 2 ** 40, 2 ** 53 - 1);
/** The placements of `validateMask`: [T, S], [B, T, S], [B, H, T, S] and the seq-first [T, S, B]. */
const LAYOUTS: ReadonlyArray<ReadonlyArray<keyof Sizes>> = [['queryLength', 'keyLength'], ['batch', 'queryLength', 'keyLength'], ['batch', 'heads', 'queryLength', 'keyLength'], ['queryLength', 'keyLength', 'batch']];

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => v === b[i]);
}

describe(`masks fuzzing (fast-check, ${5 * FUZZ_RUNS} cases)`, () => {
  it('validateMask: random ranks, shapes, dtypes, layouts and targets (some not sizes)', () => {
    const input = sizes.chain((target) =>
      fc.record({
        target: fc.constant(target),
        mask: fc.oneof(
          { arbitrary: fc.constantFrom(...LAYOUTS).chain((axes) => alignedSpec(target, axes, dtypes)), weight: 16 },
          { arbitrary: tensorSpec(target, dtypes), weight: 4 },
          { arbitrary: fc.anything(), weight: 1 },
        ),
        broken: fc.oneof({ arbitrary: fc.constant(null), weight: 10 }, { arbitrary: fc.tuple(fc.constantFrom<keyof Sizes>('batch', 'heads', 'queryLength', 'keyLength'), notASize), weight: 1 }),
        layout: fc.constantFrom<unknown>(undefined, 'batch-first', 'seq-first', 'seq-first', 'heads-first', 1),
      }),
    );
    fc.assert(
      fc.property(input, ({ target, mask: maskSpec, broken, layout }) =>
        withoutLeak(() => {
          const mask = isSpec(maskSpec) ? makeTensor(maskSpec) : maskSpec;
          const options = { ...target, ...(broken === null ? {} : { [broken[0]]: broken[1] }), ...(layout === undefined ? {} : { layout }) };
          let result: Tensor;
          try {
            result = validateMask(mask as Tensor, options as never);
          } catch (error) {
            return isTypedError(error);
          } finally {
            if (isSpec(maskSpec)) (mask as Tensor).dispose();
          }
          const wanted = [target.batch, target.heads, target.queryLength, target.keyLength];
          const ok = result.dtype === 'bool' && result.rank === 4 && result.shape.every((d, i) => d === 1 || d === wanted[i]) && isSpec(maskSpec) && placedExactly(maskSpec, result, layout === 'seq-first');
          result.dispose();
          return ok;
        }),
      ),
      { numRuns: FUZZ_RUNS, seed: 31 },
    );
  }, FUZZ_TIMEOUT_MS);

  it('mergeMasks: 0-3 masks (or undefined, or not masks) of random shapes and dtypes', () => {
    const slot = (target: Sizes) => fc.oneof({ arbitrary: tensorSpec(target, dtypes), weight: 12 }, { arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.anything(), weight: 1 });
    const input = sizes.chain((target) => fc.array(slot(target), { maxLength: 3 }));
    fc.assert(
      fc.property(input, (slots) =>
        withoutLeak(() => {
          const masks = slots.map((s) => (isSpec(s) ? makeTensor(s) : s));
          let result: Tensor | undefined;
          try {
            result = mergeMasks(...(masks as Tensor[]));
          } catch (error) {
            return isTypedError(error);
          } finally {
            masks.forEach((m, i) => isSpec(slots[i]) && (m as Tensor).dispose());
          }
          const given = slots.filter(isSpec);
          if (result === undefined) return given.length === 0 && slots.every((s) => s === undefined);
          const shape = broadcastShape(given.map((s) => s.shape));
          const ok = shape !== undefined && result.dtype === 'bool' && same(result.shape, shape) && given.every((s) => s.dtype === 'bool' && !s.disposed) && same(result.dataSync(), expectedAnd(given, shape));
          result.dispose();
          return ok;
        }),
      ),
      { numRuns: FUZZ_RUNS, seed: 32 },
    );
  }, FUZZ_TIMEOUT_MS);

  it('paddingMask: random lengths (lists, typed arrays, tensors, non-integers) and key lengths', () => {
    const length = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 6 }), weight: 10 }, { arbitrary: fc.constantFrom<unknown>(-1, 1.5, Number.NaN, Infinity, '2', null, undefined, 2 ** 53), weight: 1 });
    const lengths = fc.oneof(
      { arbitrary: fc.array(length, { maxLength: 5 }), weight: 6 },
      { arbitrary: fc.tuple(fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 5 }), fc.constantFrom(Int32Array, Float32Array, Uint8Array, Float64Array)).map(([values, Kind]) => Kind.from(values)), weight: 2 },
      { arbitrary: fc.record({ values: fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 5 }), dtype: fc.constantFrom('int32', 'int32', 'float32', 'bool'), rank2: fc.boolean(), disposed: fc.boolean() }), weight: 3 },
      { arbitrary: fc.anything(), weight: 1 },
    );
    const keyLength = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 6 }), weight: 10 }, { arbitrary: notASize, weight: 1 }, { arbitrary: huge, weight: 1 });
    fc.assert(
      fc.property(lengths, keyLength, (given, keys) =>
        withoutLeak(() => {
          const list = isLengthsTensor(given) ? given.values : isTypedArray(given) ? Array.from(given) : given; // typed arrays are read as lists
          const input = isLengthsTensor(given) ? lengthsTensor(given) : given;
          let result: Tensor;
          try {
            result = paddingMask(input as number[], keys as number);
          } catch (error) {
            return isTypedError(error);
          } finally {
            if (isLengthsTensor(given) && !given.disposed) (input as Tensor).dispose();
          }
          const values = result.dataSync();
          const ok = Array.isArray(list) && result.dtype === 'bool' && same(result.shape, [list.length, 1, 1, keys as number])
            && list.every((n, b) => Array.from({ length: keys as number }, (_, s) => values[b * (keys as number) + s] === (s < (n as number) ? 1 : 0)).every(Boolean));
          result.dispose();
          return ok;
        }),
      ),
      { numRuns: FUZZ_RUNS, seed: 33 },
    );
  }, FUZZ_TIMEOUT_MS);

  it('causalMask: random query and key lengths and offsets', () => {
    const size = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 6 }), weight: 10 }, { arbitrary: notASize, weight: 1 }, { arbitrary: huge, weight: 1 });
    const offset = fc.option(fc.oneof({ arbitrary: fc.integer({ min: -8, max: 8 }), weight: 10 }, { arbitrary: fc.constantFrom<unknown>(1.5, Number.NaN, -Infinity, '1', null, 2 ** 60), weight: 1 }), { nil: undefined });
    fc.assert(
      fc.property(size, size, offset, fc.boolean(), (queries, keys, shift, noOptions) =>
        withoutLeak(() => {
          let result: Tensor;
          try {
            result = noOptions && shift === undefined ? causalMask(queries as number, keys as number) : causalMask(queries as number, keys as number, { offset: shift as number });
          } catch (error) {
            return isTypedError(error);
          }
          const [t, s] = [queries as number, keys as number];
          const o = (shift as number | undefined) ?? s - t;
          const values = result.dataSync();
          const ok = result.dtype === 'bool' && same(result.shape, [1, 1, t, s]) && Array.from(values).every((v, i) => v === (i % s <= Math.floor(i / s) + o ? 1 : 0));
          result.dispose();
          return ok;
        }),
      ),
      { numRuns: FUZZ_RUNS, seed: 34 },
    );
  }, FUZZ_TIMEOUT_MS);

  it('paddingMaskFromIds: random nested arrays and typed-array rows (ragged, non-0/1) and tensors of any dtype and rank', () => {
    const value = fc.oneof({ arbitrary: fc.constantFrom(0, 1), weight: 20 }, { arbitrary: fc.constantFrom<unknown>(2, -1, 0.5, Number.NaN, '1', true, null, undefined), weight: 1 });
    const row = fc.array(value, { maxLength: 5 });
    const typedRows = fc.integer({ min: 0, max: 5 }).chain((w) => fc.array(fc.tuple(fc.array(fc.integer({ min: -1, max: 2 }), { minLength: w, maxLength: w }), fc.constantFrom(Int32Array, Float32Array, Uint8Array)).map(([v, Kind]) => Kind.from(v)), { maxLength: 4 }));
    const nested = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 5 }).chain((w) => fc.array(fc.array(value, { minLength: w, maxLength: w }), { maxLength: 4 })), weight: 6 },
      { arbitrary: typedRows, weight: 2 },
      { arbitrary: fc.array(fc.oneof(row, fc.anything()), { maxLength: 4 }), weight: 1 },
    );
    const ids = fc.oneof(
      { arbitrary: nested, weight: 6 },
      { arbitrary: tensorSpec({ batch: 2, heads: 1, queryLength: 3, keyLength: 4 }, fc.constantFrom('int32', 'float32', 'bool'), { min: 0, max: 3 }), weight: 3 },
      { arbitrary: fc.anything(), weight: 1 },
    );
    fc.assert(
      fc.property(ids, (given) =>
        withoutLeak(() => {
          const input = isSpec(given) ? makeTensor(given) : given;
          let result: Tensor;
          try {
            result = paddingMaskFromIds(input as number[][]);
          } catch (error) {
            return isTypedError(error);
          } finally {
            if (isSpec(given)) (input as Tensor).dispose();
          }
          const nestedRows = isSpec(given) ? [] : (given as ArrayLike<unknown>[]).map((r) => Array.from(r)); // rows: arrays or typed arrays
          const flat = isSpec(given) ? specValues(given) : nestedRows.flat();
          const [rows, width] = isSpec(given) ? given.shape : [nestedRows.length, nestedRows[0]?.length];
          const ok = result.dtype === 'bool' && same(result.shape, [rows!, 1, 1, width!]) && flat.every((v) => v === 0 || v === 1) && same(result.dataSync(), flat as number[]);
          result.dispose();
          return ok;
        }),
      ),
      { numRuns: FUZZ_RUNS, seed: 35 },
    );
  }, FUZZ_TIMEOUT_MS);
});

function isTypedArray(value: unknown): value is Int32Array | Float32Array | Uint8Array | Float64Array {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function isSpec(value: unknown): value is TensorSpec {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'shape') && Object.hasOwn(value, 'seed') && Object.hasOwn(value, 'disposed');
}

interface LengthsTensor { values: number[]; dtype: string; rank2: boolean; disposed: boolean }
function isLengthsTensor(value: unknown): value is LengthsTensor {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'rank2') && Object.hasOwn(value, 'values');
}

function lengthsTensor(given: LengthsTensor): Tensor {
  const t = tensor(given.values, given.rank2 ? [1, given.values.length] : [given.values.length], given.dtype as DataType);
  if (given.disposed) t.dispose();
  return t;
}

/** The expected AND of the given bool masks broadcast to `shape`. */
function expectedAnd(given: readonly TensorSpec[], shape: readonly number[]): number[] {
  const values = given.map(specValues);
  const size = shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: size }, (_, at) => (given.every((s, k) => broadcastValue(values[k]!, s.shape, shape, at) === 1) ? 1 : 0));
}

/** validateMask kept every value, placed as its layout says. */
function placedExactly(spec: TensorSpec, result: Tensor, seqFirst: boolean): boolean {
  const values = specValues(spec);
  const got = result.dataSync();
  if (!seqFirst) return spec.dtype === 'bool' && !spec.disposed && same(got, values);
  const [t, s, b] = spec.shape as [number, number, number]; // [T, S, B] -> [B, 1, T, S]
  return spec.dtype === 'bool' && !spec.disposed && spec.shape.length === 3 && same(result.shape, [b, 1, t, s]) && Array.from(got).every((v, i) => v === values[(Math.floor(i / s) % t) * s * b + (i % s) * b + Math.floor(i / (t * s))]);
}
