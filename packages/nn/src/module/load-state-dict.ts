import { cast, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue, formatShape, isTensorLike } from '@attnkit/errors';
import { StateDictError, type MismatchedKey } from './state-dict-error.js';

/** Tensors by checkpoint key: a `Map` (as `stateDict()` returns) or a plain record. */
export type StateDictSource = ReadonlyMap<string, Tensor> | Readonly<Record<string, Tensor>>;

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

function entriesOf(caller: string, source: StateDictSource): Array<[string, unknown]> {
  if (source instanceof Map) return [...source.entries()];
  if (typeof source !== 'object' || source === null || Array.isArray(source) || isTensorLike(source)) {
    throw new InvalidArgumentError({ caller, argument: 'stateDict', expected: 'a Map or record of tensors by checkpoint key', received: describeValue(source) });
  }
  return Object.entries(source);
}

/**
 * `Module.loadStateDict` on a module's named parameters: checks every key first (missing, unexpected,
 * wrong shape or dtype, disposed), throws one {@link StateDictError} listing all problems, and
 * only then assigns — a failed load changes nothing. int32 values for float32 parameters are cast.
 */
export function loadStateDict(caller: string, namedParameters: ReadonlyArray<[string, Variable]>, source: StateDictSource, options: LoadStateDictOptions = {}): LoadStateDictResult {
  const strict = options.strict ?? true;
  if (typeof strict !== 'boolean') throw new InvalidArgumentError({ caller, argument: 'strict', expected: 'a boolean', received: describeValue(strict) });
  const given = new Map(entriesOf(caller, source));
  const parameters = new Map(namedParameters);
  const missingKeys = [...parameters.keys()].filter((key) => !given.has(key));
  const unexpectedKeys = [...given.keys()].filter((key) => !parameters.has(key));
  const mismatchedKeys: MismatchedKey[] = [];
  for (const [key, parameter] of parameters) {
    if (!given.has(key)) continue;
    const value = given.get(key);
    const expected = `${formatShape(parameter.shape)} ${parameter.dtype}`;
    if (!isTensorLike(value) || value.isDisposed) {
      mismatchedKeys.push({ key, expected, received: isTensorLike(value) ? 'a disposed tensor' : describeValue(value) });
    } else if (formatShape(value.shape) !== formatShape(parameter.shape) || !(value.dtype === parameter.dtype || (value.dtype === 'int32' && parameter.dtype === 'float32'))) {
      mismatchedKeys.push({ key, expected, received: `${formatShape(value.shape)} ${value.dtype}` });
    }
  }
  if (mismatchedKeys.length > 0 || (strict && (missingKeys.length > 0 || unexpectedKeys.length > 0))) {
    throw new StateDictError(caller, { missingKeys: strict ? missingKeys : [], unexpectedKeys: strict ? unexpectedKeys : [], mismatchedKeys });
  }
  for (const [key, parameter] of parameters) {
    const value = given.get(key) as Tensor | undefined;
    if (value === undefined || value === parameter) continue;
    tidy(() => parameter.assign(value.dtype === parameter.dtype ? value : cast(value, parameter.dtype)));
  }
  return { missingKeys, unexpectedKeys };
}
