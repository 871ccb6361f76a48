import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkEncoderParts } from './check-encoder-parts.js';

const tokenizer = { encode: () => undefined, tokenize: () => [], modelMaxLength: 512 };
const folder = { plain: true, transformerPath: '', modules: [], prompts: new Map() };

describe('checkEncoderParts', () => {
  it('takes a tokenizer and a folder as their loaders give them', () => {
    expect(() => checkEncoderParts('SentenceEncoder', tokenizer, folder, 'a SentenceFolder (readSentenceFolder)', true)).not.toThrow();
    expect(() => checkEncoderParts('CrossEncoder', tokenizer, { plain: false, transformerPath: '' }, 'a CrossEncoderFolder (readCrossEncoderFolder)', false)).not.toThrow();
  });

  it.each<[string, unknown, unknown, string]>([
    ['an empty tokenizer', {}, folder, "SentenceEncoder: 'tokenizer' must be a Tokenizer (loadTokenizer); received Object."],
    ['an empty folder', tokenizer, {}, "SentenceEncoder: 'folder' must be a SentenceFolder (readSentenceFolder); received Object."],
    ['a cross-encoder folder for a sentence encoder', tokenizer, { plain: false, transformerPath: '' }, "SentenceEncoder: 'folder' must be a SentenceFolder (readSentenceFolder); received Object."],
  ])('refuses %s by name', (_, t, f, message) => {
    const error = thrown(() => checkEncoderParts('SentenceEncoder', t, f, 'a SentenceFolder (readSentenceFolder)', true));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
