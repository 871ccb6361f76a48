import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { engineState } from '@attnkit/kernels';
import { callBackend } from './call-backend.js';
import { parseBackendName, type BackendName } from './backend-name.js';
import { checkObject, describeValue, InvalidArgumentError, summarizeList } from '@attnkit/errors';
import { defaultTolerance } from './default-tolerance.js';
import { maxDifference } from './max-difference.js';
import { namedOutputs, type TensorOutputs } from './named-outputs.js';
import { withBackend } from './with-backend.js';

/** One output of one backend, against the reference. */
export interface OutputComparison {
  readonly output: string;
  readonly shape: readonly number[];
  readonly maxAbsDiff: number;
  readonly maxRelDiff: number;
  /** The allowed max abs difference for this backend: the one given, or the default (see {@link defaultTolerance}). */
  readonly tolerance: number;
  /** NaN values in this backend's output. Against a baseline backend any NaN fails the comparison (two NaN sides prove nothing); against float64 `reference` values only NaN where the reference has NaN passes. */
  readonly nanCount: number;
  /**
   * Why the output fails whatever its values: another shape than the baseline's (the same number of
   * values in another layout is not the same output), or an output the reference has and this
   * backend did not produce. Undefined when only the values are compared.
   */
  readonly problem?: string;
  readonly withinTolerance: boolean;
}

/** Every output of one backend. */
export interface BackendComparison {
  readonly backend: BackendName;
  readonly outputs: readonly OutputComparison[];
}

/** The result of {@link compareBackends}. */
export interface ComparisonReport {
  /** `'float64'` when `reference` values were given, else the baseline backend's name. */
  readonly reference: 'float64' | BackendName;
  readonly results: readonly BackendComparison[];
  /** Every output of every backend has the reference's shape and is within its tolerance, and every reference output was produced. */
  readonly ok: boolean;
}

/** Options of {@link compareBackends}. */
export interface CompareBackendsOptions {
  readonly backends: readonly string[];
  /**
   * Allowed max abs difference: one number for all backends, or per backend. A backend without one
   * gets {@link defaultTolerance} (never "anything goes": a comparison always has a bound).
   */
  readonly tolerance?: number | Partial<Record<BackendName, number>>;
  /** Float64 ground truth, keyed like `fn`'s outputs. When absent, `baseline` is the reference. */
  readonly reference?: Readonly<Record<string, ArrayLike<number>>>;
  /** The backend the others are compared with when there is no `reference`. Default `'cpu'`. */
  readonly baseline?: string;
}

type Readings = Map<string, { shape: number[]; values: ArrayLike<number> }>;

async function readOn(backend: BackendName, fn: () => TensorOutputs): Promise<Readings> {
  if (engineState().registry[backend] === undefined) await withBackend(backend, () => undefined); // first use: initialise it
  const pinned = callBackend('compareBackends', backend);
  await pinned.settled();
  // on `backend`, whatever else runs meanwhile; the outputs are cloned inside the tidy, so that what is
  // disposed below is ours alone: a tensor fn returns but did not create (a caller's input) survives
  const outputs = pinned.run(() =>
    tidy(() => {
      const returned: unknown = fn();
      if (typeof (returned as { then?: unknown } | null)?.then === 'function') {
        (returned as Promise<unknown>).then(undefined, () => undefined); // its rejection is reported by the error below, not as unhandled
        throw new InvalidArgumentError({ caller: 'compareBackends', argument: 'fn', expected: 'a synchronous function returning tensors (it runs inside tf.tidy)', received: 'a function that returned a Promise', hint: 'Compute the tensors synchronously; await any data before calling compareBackends.' });
      }
      const named = namedOutputsOf(returned);
      return named.map(([name, tensor]) => [name, tensor.clone()] as [string, Tensor]);
    }),
  );
  try {
    const readings: Readings = new Map();
    for (const [name, tensor] of outputs) {
      readings.set(name, { shape: tensor.shape, values: await tensor.data() }); // a read uses the tensor's own backend
    }
    return readings;
  } finally {
    for (const [, tensor] of outputs) tensor.dispose();
  }
}

/** fn's outputs as named tensors, refused with compareBackends' name when there are none or one is not a live tensor. */
function namedOutputsOf(returned: unknown): Array<[string, Tensor]> {
  let named: Array<[string, Tensor]>;
  try {
    named = namedOutputs(returned as TensorOutputs);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    throw new InvalidArgumentError({ caller: 'compareBackends', argument: 'fn', expected: `a function whose result is ${error.expected.replace(/^a live tensor/, 'live tensors')}`, received: `${error.argument.replace(/^outputs/, 'a result')} that is ${error.received}`, ...(error.hint === undefined ? {} : { hint: error.hint }) });
  }
  if (named.length === 0) {
    throw new InvalidArgumentError({ caller: 'compareBackends', argument: 'fn', expected: 'a function returning at least one tensor', received: 'a result with no outputs', hint: 'An empty list or record compares nothing.' });
  }
  return named;
}

function checkTolerance(tolerance: unknown): void {
  const bad = (argument: string, value: unknown): never => {
    throw new InvalidArgumentError({ caller: 'compareBackends', argument, expected: 'a finite number ≥ 0 (max abs difference), or an object of them keyed by backend name', received: describeValue(value) });
  };
  if (tolerance === undefined) return;
  if (typeof tolerance === 'number') {
    if (!(Number.isFinite(tolerance) && tolerance >= 0)) bad('tolerance', tolerance);
    return;
  }
  if (typeof tolerance !== 'object' || tolerance === null || Array.isArray(tolerance) || Object.keys(tolerance).length === 0) bad('tolerance', tolerance); // {} would silently mean the defaults
  for (const [name, value] of Object.entries(tolerance as object)) {
    parseBackendName(name);
    if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) bad(`tolerance.${name}`, value);
  }
}

function toleranceFor(backend: BackendName, tolerance: CompareBackendsOptions['tolerance'], expected: ArrayLike<number>): number {
  const given = typeof tolerance === 'number' ? tolerance : tolerance?.[backend];
  return given ?? defaultTolerance(backend, expected);
}

/**
 * Runs the same tensor function on several backends and reports, per output, the max absolute and
 * relative difference against float64 `reference` values or against a baseline backend. `fn` must
 * be synchronous; it runs inside `tf.tidy` on each backend in turn, and nothing leaks. The active
 * backend is never changed (a backend used for the first time is initialised through
 * `withBackend`), so calls may overlap with each other and with other work: each side is computed
 * on the backend it names.
 *
 * @example
 * const report = await compareBackends(() => tf.softmax(x), { backends: ['cpu', 'wasm'], tolerance: 1e-6 });
 * report.results[1].outputs[0].maxAbsDiff; // wasm vs cpu
 * (await compareBackends(() => tf.softmax(x), { backends: ['wasm'] })).ok; // default bound: defaultTolerance()
 */
export async function compareBackends(
  fn: () => TensorOutputs,
  options: CompareBackendsOptions,
): Promise<ComparisonReport> {
  if (typeof fn !== 'function') throw new InvalidArgumentError({ caller: 'compareBackends', argument: 'fn', expected: 'a function returning tensors', received: describeValue(fn) });
  checkObject(options, { caller: 'compareBackends', argument: 'options', expected: 'an object { backends, tolerance?, reference?, baseline? }' });
  if (!Array.isArray(options.backends)) throw new InvalidArgumentError({ caller: 'compareBackends', argument: 'backends', expected: 'a list of backend names', received: describeValue(options.backends) });
  const backends = options.backends.map(parseBackendName);
  if (backends.length === 0) {
    throw new InvalidArgumentError({ caller: 'compareBackends', argument: 'backends', expected: 'at least one backend name', received: '[]' });
  }
  checkTolerance(options.tolerance);
  const baseline = options.baseline === undefined ? 'cpu' : parseBackendName(options.baseline); // null is no name: refused, not read as cpu
  const given = options.reference as unknown;
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given) || Object.values(given).some((v) => typeof v !== 'object' || v === null || typeof (v as { length?: unknown }).length !== 'number'))) {
    throw new InvalidArgumentError({ caller: 'compareBackends', argument: 'reference', expected: 'an object of output name to its float64 values (arrays or typed arrays)', received: describeValue(given) });
  }
  const reference: Readings = new Map();
  if (options.reference === undefined) {
    for (const [name, reading] of await readOn(baseline, fn)) reference.set(name, reading);
  } else {
    for (const [name, values] of Object.entries(options.reference)) reference.set(name, { shape: [], values });
  }
  const results: BackendComparison[] = [];
  for (const backend of backends) {
    const readings = await readOn(backend, fn);
    const outputs: OutputComparison[] = [];
    for (const [name, { shape, values }] of readings) {
      const expected = reference.get(name);
      if (expected === undefined) {
        throw new InvalidArgumentError({
          caller: 'compareBackends',
          argument: 'reference',
          expected: `a value for every output of fn (${summarizeList([...readings.keys()])})`,
          received: `keys ${summarizeList([...reference.keys()])}`,
        });
      }
      const { maxAbsDiff, maxRelDiff } = maxDifference(values, expected.values, 'compareBackends');
      const tolerance = toleranceFor(backend, options.tolerance, expected.values);
      let nanCount = 0;
      for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i])) nanCount++;
      const nanFree = nanCount === 0 || options.reference !== undefined; // a float64 reference says where NaN is right (maxDifference matched them)
      const sameShape = options.reference !== undefined || (expected.shape.length === shape.length && expected.shape.every((size, i) => size === shape[i]));
      const problem = sameShape ? undefined : `shape [${shape.join(', ')}], the ${baseline} baseline's [${expected.shape.join(', ')}]`;
      outputs.push({ output: name, shape, maxAbsDiff, maxRelDiff, tolerance, nanCount, ...(problem === undefined ? {} : { problem }), withinTolerance: problem === undefined && nanFree && maxAbsDiff <= tolerance });
    }
    for (const [name, expected] of reference) {
      if (readings.has(name)) continue; // an output the reference has and this backend never produced fails, never passes unseen
      outputs.push({ output: name, shape: [], maxAbsDiff: Number.NaN, maxRelDiff: Number.NaN, tolerance: toleranceFor(backend, options.tolerance, expected.values), nanCount: 0, problem: `not produced on ${backend} (the ${options.reference === undefined ? `${baseline} baseline` : 'reference'} has it)`, withinTolerance: false });
    }
    results.push({ backend, outputs });
  }
  return {
    reference: options.reference === undefined ? baseline : 'float64',
    results,
    ok: results.every((r) => r.outputs.every((o) => o.withinTolerance)),
  };
}
