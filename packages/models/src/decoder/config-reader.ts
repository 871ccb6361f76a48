import { InvalidArgumentError, isTensorLike } from '@attnkit/errors';
import { ACTIVATIONS } from '@attnkit/nn';
import { configEntries } from '../encoder/read-encoder-config.js';

/** Reads typed values from config.json's entries; every bad value is an `InvalidArgumentError` naming its key. */
export interface ConfigReader {
  readonly raw: ReadonlyMap<string, unknown>;
  /** Throws the typed error for `key`. */
  fail(key: string, expected: string, received: unknown, hint?: string): never;
  /** An integer ≥ `min` (default 1); `null` or absent take `fallback` (absent without one is an error). */
  integer(key: string, fallback?: number, min?: number): number;
  /** A number in `(min, max)` (`[min` with `closedMin`, `max]` with `closedMax`). */
  number(key: string, fallback: number, range: { readonly min: number; readonly max: number; readonly closedMin?: boolean; readonly closedMax?: boolean }): number;
  boolean(key: string, fallback: boolean): boolean;
  /** A Hugging Face `hidden_act` attnkit has. */
  activation(key: string, fallback: string): string;
  /** A token id in `[0, vocabSize)`, or `undefined` for `null` / absent. */
  tokenId(key: string, vocabSize: number): number | undefined;
  /** One token id or a list of them (`eos_token_id`); `[]` for `null` / absent. */
  tokenIds(key: string, vocabSize: number): number[];
  /** Refuses a key whose value is not one of `allowed` (absent and `null` pass): settings attnkit does not implement. */
  only(key: string, allowed: readonly unknown[], why: string): void;
}

/**
 * The reader of one family's config.json entries, for `caller`'s typed errors: `'parseLlamaConfig'
 * must be a positive integer; received ...` names the config.json key, what it should be and what
 * it is. `null` counts as absent (transformers writes `null` for unset values).
 *
 * @example
 * const read = configReader(configEntries(json, 'parseGpt2Config'), 'parseGpt2Config');
 * const layers = read.integer('n_layer', 12);
 */
export function configReader(raw: ReadonlyMap<string, unknown>, caller: string): ConfigReader {
  const get = (key: string): unknown => (raw.get(key) === null ? undefined : raw.get(key));
  const fail = (key: string, expected: string, received: unknown, hint?: string): never => {
    throw new InvalidArgumentError({ caller, argument: key, expected, received: JSON.stringify(received) ?? String(received), ...(hint === undefined ? {} : { hint }) });
  };
  const id = (key: string, value: unknown, vocabSize: number): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= vocabSize) fail(key, `a token id in [0, vocab_size = ${vocabSize})`, value);
    return value as number;
  };
  return {
    raw,
    fail,
    integer(key, fallback, min = 1) {
      const value = get(key) ?? fallback;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min) fail(key, min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer ≥ ${min}`, value);
      return value as number;
    },
    number(key, fallback, { min, max, closedMin = false, closedMax = false }) {
      const value = get(key) ?? fallback;
      if (typeof value !== 'number' || !(closedMin ? value >= min : value > min) || !(closedMax ? value <= max : value < max)) fail(key, `a number in ${closedMin ? '[' : '('}${min}, ${max === Infinity ? '∞' : max}${closedMax ? ']' : ')'}`, value);
      return value as number;
    },
    boolean(key, fallback) {
      const value = get(key) ?? fallback;
      if (typeof value !== 'boolean') fail(key, 'true or false', value);
      return value as boolean;
    },
    activation(key, fallback) {
      const value = get(key) ?? fallback;
      if (typeof value !== 'string' || !Object.hasOwn(ACTIVATIONS, value)) fail(key, `one of ${Object.keys(ACTIVATIONS).map((a) => `"${a}"`).join(', ')}`, value);
      return value as string;
    },
    tokenId(key, vocabSize) {
      const value = get(key);
      return value === undefined ? undefined : id(key, value, vocabSize);
    },
    tokenIds(key, vocabSize) {
      const value = get(key);
      if (value === undefined) return [];
      if (Array.isArray(value)) return value.map((v, i) => id(`${key}[${i}]`, v, vocabSize));
      return [id(key, value, vocabSize)];
    },
    only(key, allowed, why) {
      const value = get(key);
      if (value !== undefined && !allowed.includes(value)) fail(key, `${allowed.map((v) => JSON.stringify(v)).join(' or ')} (${why})`, value);
    },
  };
}

/**
 * A decoder config.json's top-level entries (`configEntries`: a JSON object, `"__proto__"` a plain
 * key), refusing a tensor (an object, but never a parsed config).
 *
 * @example
 * const raw = decoderConfigEntries(json, 'parseLlamaConfig');
 */
export function decoderConfigEntries(json: unknown, caller: string): Map<string, unknown> {
  if (isTensorLike(json)) throw new InvalidArgumentError({ caller, argument: 'config', expected: 'a JSON object (config.json)', received: 'a tensor' });
  return configEntries(json, caller);
}
