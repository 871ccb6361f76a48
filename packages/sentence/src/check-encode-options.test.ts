import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkEncodeOptions, checkRanges, checkTexts, encodeOptionsWithoutNulls } from './check-encode-options.js';

const caller = 'SentenceEncoder.encode';
const folder = { caller, hasPooling: true, truncateDim: undefined };

describe('checkEncodeOptions', () => {
  it("fills in sentence-transformers' defaults, and the folder's truncate_dim", () => {
    expect(checkEncodeOptions({}, folder)).toEqual({ normalize: false, batchSize: 32, precision: 'float32', outputValue: 'sentence_embedding', truncateDim: undefined });
    expect(checkEncodeOptions({}, { ...folder, truncateDim: 16 }).truncateDim).toBe(16);
    expect(checkEncodeOptions({ truncateDim: 8 }, { ...folder, truncateDim: 16 }).truncateDim).toBe(8);
  });

  it('reads a null option as absent, every option alike (None in sentence-transformers; normalize_embeddings=None is falsy)', () => {
    const nulls = { batchSize: null, promptName: null, prompt: null, normalize: null, truncateDim: null, precision: null, ranges: null, outputValue: null, onProgress: null, signal: null };
    expect(checkEncodeOptions(nulls as never, folder)).toEqual(checkEncodeOptions({}, folder));
    expect(checkEncodeOptions({ normalize: null } as never, folder).normalize).toBe(false);
    expect(encodeOptionsWithoutNulls(nulls as never, caller)).toEqual({});
    expect(encodeOptionsWithoutNulls({ normalize: true, prompt: null } as never, caller)).toEqual({ normalize: true });
    expect(() => encodeOptionsWithoutNulls({ normalise: null } as never, caller)).toThrow("received the unknown key 'normalise'");
    expect(() => checkEncodeOptions({ normalize: 'yes' } as never, folder)).toThrow("SentenceEncoder.encode: 'normalize' must be true or false; received string 'yes'.");
  });

  it.each<[string, object, typeof folder, string]>([
    ['a misspelled key', { batch_size: 4 }, folder, "SentenceEncoder.encode: 'options' must be an object with only the keys batchSize, promptName, prompt, normalize, truncateDim, precision, ranges, outputValue, onProgress, signal; received the unknown key 'batch_size'. Did you mean 'batchSize'?"],
    ['a precision it does not have', { precision: 'int4' }, folder, "SentenceEncoder.encode: 'precision' must be 'float32', 'int8', 'uint8', 'binary', 'ubinary'; received string 'int4'."],
    ['token embeddings of a quantized precision', { outputValue: 'token_embeddings', precision: 'int8' }, folder, "SentenceEncoder.encode: 'precision' must be 'float32' with outputValue 'token_embeddings'; received string 'int8'."],
    ['sentence embeddings of a folder without Pooling', {}, { ...folder, hasPooling: false }, "SentenceEncoder.encode: 'outputValue' must be 'token_embeddings': this folder has no Pooling module; received 'sentence_embedding'."],
    ['a batch size of 0', { batchSize: 0 }, folder, "SentenceEncoder.encode: 'batchSize' must be an integer ≥ 1; received number 0."],
  ])('refuses %s', (_, options, given, message) => {
    const error = thrown(() => checkEncodeOptions(options as never, given));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});

describe('checkTexts', () => {
  it('reads each text once, and refuses a hole or a non-string by its index', () => {
    expect(checkTexts(['a', 'b'], caller)).toEqual(['a', 'b']);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => checkTexts(['a', , 'c'] as never, caller)).toThrow("SentenceEncoder.encode: 'texts[1]' must be a string; received undefined.");
    expect(() => checkTexts('a text' as never, caller)).toThrow("SentenceEncoder.encode: 'texts' must be a list of strings; received string 'a text'.");
  });
});

describe('checkRanges', () => {
  it('takes two lists of E finite numbers with a precision they calibrate', () => {
    expect(() => checkRanges({ min: [0, 0], max: [1, 1] }, 'int8', 2, caller)).not.toThrow();
    expect(() => checkRanges({ min: [0, 0], max: [1, 1] }, 'float32', 2, caller)).toThrow(/'ranges' must be absent with precision 'float32'/);
    expect(() => checkRanges({ min: [0], max: [1, 1] }, 'uint8', 2, caller)).toThrow(/'ranges\.min' must be quantization ranges \{ min, max \}: two lists of E = 2 numbers/);
    expect(() => checkRanges({ min: [0, Number.NaN], max: [1, 1] }, 'uint8', 2, caller)).toThrow(InvalidArgumentError);
  });
});
