import { cast, tensor, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkOptionKeys, describeValue, formatShape, isTensorLike } from '@attnkit/errors';
import { StateDictError, type MismatchedKey } from './state-dict-error.js';

/**
 * Values not yet on a backend: a shape and its row-major values, as `readSafetensors` returns each
 * entry. `loadStateDict` makes each tensor only when it assigns it, so a checkpoint never sits on the
 * backend twice.
 */
export interface TensorData {
  readonly shape: readonly number[];
  readonly values: Float32Array | Int32Array;
}

/** Values by checkpoint key — tensors or {@link TensorData} — as a `Map` (`stateDict()`, `readSafetensors().tensors`) or a plain record. */
export type StateDictSource = ReadonlyMap<string, Tensor | TensorData> | Readonly<Record<string, Tensor | TensorData>>;

/** Options of `Module.loadStateDict`. */
export interface LoadStateDictOptions {
  /** Every parameter must be given and every key used (default true, as PyTorch). */
  readonly strict?: boolean;
}

/** What a non-strict load left out (both empty after a strict load). */
export interface LoadStateDictResult {
  readonly missingKeys: string[];
  readonly unexpectedKeys: string[];
}

function isTensorData(value: unknown): value is TensorData {
  if (typeof value !== 'object' || value === null || isTensorLike(value)) return false;
  const { shape, values } = value as Partial<TensorData>;
  return Array.isArray(shape) && shape.every((d) => Number.isInteger(d) && d >= 0) && (values instanceof Float32Array || values instanceof Int32Array)
    && values.length === shape.reduce((a, b) => a * b, 1);
}

function entriesOf(caller: string, source: StateDictSource, options: unknown): Array<[string, unknown]> {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError({ caller, argument: 'options', expected: 'an object ({ strict })', received: describeValue(options) });
  checkOptionKeys(options, ['strict'], caller);
  if (source instanceof Map) return [...source.entries()];
  if (typeof source !== 'object' || source === null || Array.isArray(source) || isTensorLike(source)) {
    throw new InvalidArgumentError({ caller, argument: 'stateDict', expected: 'a Map or record of tensors by checkpoint key', received: describeValue(source) });
  }
  return Object.entries(source); // own keys only: '__proto__' or 'constructor' are plain (unexpected) keys here
}

/** What a value is, for the error: `'[2, 3] float32'`, `'a disposed tensor'`, or the value described. */
function received(value: unknown): { shape: string; dtype: string } | string {
  if (isTensorLike(value)) return value.isDisposed ? 'a disposed tensor' : { shape: formatShape(value.shape), dtype: value.dtype };
  if (isTensorData(value)) return { shape: formatShape(value.shape), dtype: value.values instanceof Int32Array ? 'int32' : 'float32' };
  return describeValue(value);
}

/**
 * `Module.loadStateDict` on a module's named parameters: checks every key first (missing, unexpected,
 * wrong shape or dtype, disposed, not a tensor), throws one {@link StateDictError} listing all
 * problems (and `hint`, when given), and only then assigns — a failed load changes nothing. int32
 * values for float32 parameters are cast; {@link TensorData} becomes a tensor only when it is assigned.
 */
export function loadStateDict(caller: string, namedParameters: ReadonlyArray<[string, Variable]>, source: StateDictSource, options: LoadStateDictOptions = {}, hint = ''): LoadStateDictResult {
  const given = new Map(entriesOf(caller, source, options));
  const strict = options.strict === undefined ? true : options.strict; // null is no boolean: refused, as every other option's null
  if (typeof strict !== 'boolean') throw new InvalidArgumentError({ caller, argument: 'strict', expected: 'a boolean', received: describeValue(strict) });
  const parameters = new Map(namedParameters);
  const missingKeys = [...parameters.keys()].filter((key) => !given.has(key));
  const unexpectedKeys = [...given.keys()].filter((key) => !parameters.has(key));
  const mismatchedKeys: MismatchedKey[] = [];
  for (const [key, parameter] of parameters) {
    if (!given.has(key)) continue;
    const expected = `${formatShape(parameter.shape)} ${parameter.dtype}`;
    const value = received(given.get(key));
    if (typeof value === 'string') mismatchedKeys.push({ key, expected, received: value });
    else if (value.shape !== formatShape(parameter.shape) || !(value.dtype === parameter.dtype || (value.dtype === 'int32' && parameter.dtype === 'float32'))) {
      mismatchedKeys.push({ key, expected, received: `${value.shape} ${value.dtype}` });
    }
  }
  if (mismatchedKeys.length > 0 || (strict && (missingKeys.length > 0 || unexpectedKeys.length > 0))) {
    throw new StateDictError(caller, { missingKeys: strict ? missingKeys : [], unexpectedKeys: strict ? unexpectedKeys : [], mismatchedKeys }, hint);
  }
  for (const [key, parameter] of parameters) {
    const value = given.get(key) as Tensor | TensorData | undefined;
    if (value === undefined || value === parameter) continue;
    tidy(() => {
      const t = isTensorLike(value) ? value : tensor(value.values, value.shape as number[], value.values instanceof Int32Array ? 'int32' : 'float32');
      parameter.assign(t.dtype === parameter.dtype ? t : cast(t, parameter.dtype));
    });
  }
  return { missingKeys, unexpectedKeys };
}
