import { checkAbortSignal, checkBoolean, checkFunction, checkInteger, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { PRECISIONS, type Precision } from './quantize-embeddings.js';
import type { SentenceEncodeOptions } from './sentence-encoder.js';
import { withoutNullOptions } from './without-null-options.js';

const OPTION_KEYS = ['batchSize', 'promptName', 'prompt', 'normalize', 'truncateDim', 'precision', 'ranges', 'outputValue', 'onProgress', 'signal'] as const;

/** The options of one `encode` call, checked, with their defaults. */
export interface CheckedEncodeOptions {
  readonly normalize: boolean;
  readonly batchSize: number;
  readonly precision: Precision;
  readonly outputValue: 'sentence_embedding' | 'token_embeddings';
  /** The call's, else the folder's; undefined: every dimension. */
  readonly truncateDim: number | undefined;
}

/**
 * `SentenceEncoder.encode`'s options object checked for unknown keys, with every `null` option left
 * out: a `null` reads as absent (its default), as `None` does in `SentenceTransformer.encode`
 * (`normalize_embeddings=None` is falsy, `prompt=None` no prompt, ...).
 *
 * @example
 * const options = encodeOptionsWithoutNulls({ normalize: null, batchSize: 8 }, 'SentenceEncoder.encode'); // { batchSize: 8 }
 */
export function encodeOptionsWithoutNulls(options: SentenceEncodeOptions, caller: string): SentenceEncodeOptions {
  checkOptionKeys(options, OPTION_KEYS, caller);
  return withoutNullOptions(options);
}

/**
 * Checks `SentenceEncoder.encode`'s options — known keys, types, and the combinations that make no
 * sense (token embeddings of a quantized precision, sentence embeddings of a folder without a
 * Pooling module) — and fills in their defaults. The prompt and `ranges` are checked where the
 * folder and the width are known.
 *
 * @example
 * const { batchSize, precision } = checkEncodeOptions(options, { caller: 'SentenceEncoder.encode', hasPooling: true, truncateDim: undefined });
 */
export function checkEncodeOptions(given: SentenceEncodeOptions, folder: { readonly caller: string; readonly hasPooling: boolean; readonly truncateDim: number | undefined }): CheckedEncodeOptions {
  const { caller } = folder;
  const options = encodeOptionsWithoutNulls(given, caller);
  const normalize = checkBoolean(options.normalize, { caller, argument: 'normalize', fallback: false });
  checkFunction(options.onProgress, { caller, argument: 'onProgress' });
  checkAbortSignal(options.signal, { caller });
  const batchSize = checkInteger(options.batchSize ?? 32, { caller, argument: 'batchSize', min: 1 });
  const precision = options.precision ?? 'float32';
  const refuse = (argument: string, expected: string, received: string): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received });
  };
  if (!(PRECISIONS as readonly unknown[]).includes(precision)) refuse('precision', PRECISIONS.map((p) => `'${p}'`).join(', '), describeValue(precision));
  const outputValue = options.outputValue ?? 'sentence_embedding';
  if (outputValue !== 'sentence_embedding' && outputValue !== 'token_embeddings') refuse('outputValue', "'sentence_embedding' or 'token_embeddings'", describeValue(outputValue));
  if (outputValue === 'token_embeddings' && precision !== 'float32') refuse('precision', "'float32' with outputValue 'token_embeddings'", describeValue(precision));
  if (outputValue === 'sentence_embedding' && !folder.hasPooling) refuse('outputValue', "'token_embeddings': this folder has no Pooling module", "'sentence_embedding'");
  const truncateDim = options.truncateDim ?? folder.truncateDim;
  if (truncateDim !== undefined) checkInteger(truncateDim, { caller, argument: 'truncateDim', min: 1 });
  return { normalize, batchSize, precision, outputValue, truncateDim };
}

/**
 * The texts of an `encode` call, read once each: a list of strings (a hole reads as `undefined`
 * and is refused; nothing the caller changes afterwards is seen).
 *
 * @example
 * const texts = checkTexts(['a', 'b'], 'SentenceEncoder.encode');
 */
export function checkTexts(given: readonly string[], caller: string): readonly string[] {
  if (!Array.isArray(given)) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a list of strings', received: describeValue(given) });
  const texts: readonly unknown[] = Array.from(given);
  texts.forEach((text, i) => {
    if (typeof text !== 'string') throw new InvalidArgumentError({ caller, argument: `texts[${i}]`, expected: 'a string', received: describeValue(text) });
  });
  return texts as readonly string[];
}

export { checkRanges } from './quantize-embeddings.js';
