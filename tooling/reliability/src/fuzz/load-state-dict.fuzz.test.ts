import fc from 'fast-check';
import { tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { FeedForward, StateDictError, type LoadStateDictResult, type TensorData } from '@attnkit/nn';
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from '../fuzz-budget.js';
import { withoutLeak } from './no-leak.js';
import { isTypedError } from './typed-error.js';

/** A StateDictError lists every key in its fields, but its message stays readable. */
const MAX_MESSAGE = 2000;

let module: FeedForward;
let shapes: Map<string, readonly number[]>;
beforeAll(async () => {
  await useBackend('cpu');
  module = new FeedForward({ embedDim: 3, feedForwardDim: 4, seed: 1 }); // linear1.weight [4, 3], linear1.bias [4], linear2.weight [3, 4], linear2.bias [3]
  shapes = new Map(module.namedParameters().map(([key, p]) => [key, p.shape]));
});
afterAll(() => module.dispose());

/** What one checkpoint key holds in a fuzz case. */
type Entry =
  | { readonly kind: 'tensor' | 'data' | 'int32-data' | 'nan'; readonly seed: number }
  | { readonly kind: 'wrong-shape'; readonly shape: readonly number[] }
  | { readonly kind: 'bool' | 'disposed' }
  | { readonly kind: 'other'; readonly value: unknown };

const entry: fc.Arbitrary<Entry> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constantFrom('tensor', 'data', 'int32-data', 'nan'), seed: fc.integer() }), weight: 12 },
  { arbitrary: fc.record({ kind: fc.constant('wrong-shape' as const), shape: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constantFrom('bool' as const, 'disposed' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('other' as const), value: fc.anything() }), weight: 1 },
);

const KEYS = ['linear1.weight', 'linear1.bias', 'linear2.weight', 'linear2.bias'];
/** Keys that are almost right: misspelled, prefixed (as `bert.X` next to `X`), cased, padded, and keys that are object internals. */
const nearKey = fc.oneof(
  fc.constantFrom(...KEYS).chain((key) => fc.constantFrom(`bert.${key}`, `module.${key}`, key.replace('weight', 'weigth'), key.toUpperCase(), `${key} `, key.replace('.', '_'), key.replace('weight', 'gamma'), `${key}.0`)),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '', '.', 'linear1', 'linear1.', 'dropout.p'),
  fc.string({ maxLength: 12 }),
);

/** Values of an entry (exactly what loading must copy), or undefined where nothing is loadable. */
function valuesOf(e: Entry, shape: readonly number[]): number[] | undefined {
  if (e.kind !== 'tensor' && e.kind !== 'data' && e.kind !== 'int32-data' && e.kind !== 'nan') return undefined;
  const size = shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: size }, (_, i) => (e.kind === 'int32-data' ? ((e.seed + i * 7) % 5) - 2 : e.kind === 'nan' && i === 0 ? Number.NaN : Math.fround(Math.sin(e.seed + i) * 3)));
}

/** Whether an entry can load into a parameter of `shape` (a tensor or data of that shape, float32 or int32). */
function fits(e: Entry, shape: readonly number[]): boolean {
  if (e.kind === 'wrong-shape') return e.shape.join() === shape.join();
  return valuesOf(e, shape) !== undefined;
}

/** The same keys, in any order. */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(b);
  return a.length === b.length && a.every((key) => set.has(key));
}

/** The value stored under a key (tensors made here are returned in `made` for disposal). */
function valueOf(e: Entry, shape: readonly number[], made: Tensor[]): unknown {
  const values = valuesOf(e, shape);
  switch (e.kind) {
    case 'tensor':
    case 'nan': {
      const t = tensor(values!, [...shape], 'float32');
      made.push(t);
      return t;
    }
    case 'data':
      return { shape, values: Float32Array.from(values!) } satisfies TensorData;
    case 'int32-data':
      return { shape, values: Int32Array.from(values!) } satisfies TensorData;
    case 'wrong-shape':
      return { shape: e.shape, values: new Float32Array(e.shape.reduce((a, b) => a * b, 1)) } satisfies TensorData;
    case 'bool': {
      const t = tensor(new Array(shape.reduce((a, b) => a * b, 1)).fill(1), [...shape], 'bool');
      made.push(t);
      return t;
    }
    case 'disposed': {
      const t = tensor(0);
      t.dispose();
      return t;
    }
    case 'other':
      return e.value;
  }
}

interface Case {
  readonly present: ReadonlyArray<Entry | null>;
  readonly extra: ReadonlyArray<readonly [string, Entry]>;
  /** How many generated bad keys (`encoder.layer.N.xxx.weight`, names up to 100 characters) are added: mostly none, 1 case in 100 up to 10 000. */
  readonly manyBad: number;
  readonly asMap: boolean;
  readonly strict: unknown;
}

function snapshot(): Map<string, Float32Array> {
  return new Map(module.namedParameters().map(([key, p]) => [key, p.dataSync() as Float32Array]));
}

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => Object.is(v, b[i]));
}

/** One load: exactly the given values and the right key lists, or a typed error with a bounded message that changed nothing. */
function loadsExactlyOrRejects(c: Case): boolean {
  return withoutLeak(() => {
    const made: Tensor[] = [];
    const entries: Array<[string, unknown]> = [];
    const given = new Map<string, Entry>();
    KEYS.forEach((key, i) => {
      const e = c.present[i];
      if (e === null || e === undefined) return;
      entries.push([key, valueOf(e, shapes.get(key)!, made)]);
      given.set(key, e);
    });
    for (let i = 0; i < c.manyBad; i++) {
      const key = `encoder.layer.${i}.${'x'.repeat(i % 80)}.weight`;
      entries.push([key, valueOf({ kind: 'data', seed: i }, [2], made)]);
      given.set(key, { kind: 'data', seed: i });
    }
    for (const [key, e] of c.extra) {
      if (given.has(key)) continue;
      entries.push([key, valueOf(e, shapes.get(key) ?? [2], made)]); // a near key can be a real one ("linear2.bias" has no "weight" to misspell)
      given.set(key, e);
    }
    const record = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of entries) Object.defineProperty(record, key, { value, enumerable: true }); // '__proto__' an own key
    const source = c.asMap ? new Map(entries) : Object.setPrototypeOf(record, Object.prototype);
    const before = snapshot();
    const missing = KEYS.filter((key) => !given.has(key));
    const unexpected = [...given.keys()].filter((key) => !KEYS.includes(key));
    const mismatched = KEYS.filter((key) => given.has(key) && !fits(given.get(key)!, shapes.get(key)!));
    let result: LoadStateDictResult;
    try {
      result = module.loadStateDict(source as never, c.strict === undefined ? {} : { strict: c.strict as boolean });
    } catch (error) {
      isTypedError(error, MAX_MESSAGE);
      const after = snapshot();
      if (![...before].every(([key, values]) => same(values, after.get(key)!))) throw new Error('a failed load changed parameters');
      if (error instanceof StateDictError) {
        const strict = c.strict !== false;
        const complete = sameKeys(error.mismatchedKeys.map((m) => m.key), mismatched) && sameKeys(error.missingKeys, strict ? missing : []) && sameKeys(error.unexpectedKeys, strict ? unexpected : []);
        if (!complete) throw new Error(`StateDictError lists the wrong keys: ${error.message}`);
      }
      return true;
    } finally {
      made.forEach((t) => t.dispose());
    }
    const after = snapshot();
    const expected = (key: string) => (given.has(key) ? (valuesOf(given.get(key)!, shapes.get(key)!) ?? new Float32Array(shapes.get(key)!.reduce((a, b) => a * b, 1))) : before.get(key)!); // a fitting 'wrong-shape' entry holds zeros
    const loadedExactly = KEYS.every((key) => same(after.get(key)!, expected(key)));
    const strictOk = c.strict === false || (missing.length === 0 && unexpected.length === 0);
    const strictIsBoolean = c.strict === undefined || c.strict === null || typeof c.strict === 'boolean'; // null is "not given" (`strict ?? true`)
    return mismatched.length === 0 && strictOk && strictIsBoolean && loadedExactly && sameKeys(result.missingKeys, missing) && sameKeys(result.unexpectedKeys, unexpected);
  });
}

describe(`Module.loadStateDict fuzzing (fast-check, ${FUZZ_RUNS} cases)`, () => {
  it('random key sets: missing, unexpected, misspelled, bert.X next to X, wrong shapes and kinds, NaN, int32, up to 10 000 bad keys; strict or not', () => {
    const presence = fc.oneof({ arbitrary: entry, weight: 6 }, { arbitrary: fc.constant(null), weight: 1 });
    const cases = fc.record({
      present: fc.tuple(presence, presence, presence, presence),
      extra: fc.array(fc.tuple(nearKey, entry), { maxLength: 4 }),
      manyBad: fc.oneof({ arbitrary: fc.constant(0), weight: 99 }, { arbitrary: fc.integer({ min: 1000, max: 10_000 }), weight: 1 }),
      asMap: fc.boolean(),
      strict: fc.oneof({ arbitrary: fc.constantFrom<unknown>(undefined, true, false), weight: 10 }, { arbitrary: fc.constantFrom<unknown>('false', 0, null), weight: 1 }),
    });
    fc.assert(fc.property(cases, loadsExactlyOrRejects), { numRuns: FUZZ_RUNS, seed: 51 });
  }, FUZZ_TIMEOUT_MS);
});
