import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { wordLevel } from '../models/word-level.js';
import { createNormalizer } from '../normalizers/create-normalizer.js';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { AddedVocabulary } from './added-vocabulary.js';

const model = wordLevel({ '[UNK]': 0, a: 1, is: 2, this: 3 }, '[UNK]');
const lowercase = createNormalizer(ComponentConfig.of({ type: 'Lowercase' }, 'normalizer', 'Tokenizer'));
const token = (content: string, flags: Partial<Record<'single_word' | 'lstrip' | 'rstrip' | 'normalized' | 'special', boolean>> = {}) => ({ id: 99, content, single_word: false, lstrip: false, rstrip: false, normalized: true, special: false, ...flags });
// tokenizers 0.23: this vocabulary, a WhitespaceSplit pre-tokenizer, a Lowercase normalizer and add_tokens of these four
const added = new AddedVocabulary([token('is', { single_word: true }), token('<m>', { lstrip: true, rstrip: true, normalized: false }), token('WORLD'), token('new', { special: true, normalized: false })], model, lowercase, 'Tokenizer');
const split = (text: string) => added.split(text, lowercase).map((s) => (s.id === undefined ? s.text : s.id));

describe('AddedVocabulary', () => {
  it("gives ids as the library does: the vocabulary's for a token in it, then the next after the model's size (the file's ids are not used)", () => {
    expect(['is', '<m>', 'WORLD', 'new'].map((t) => added.tokenToId(t))).toEqual([2, 4, 5, 6]);
    expect([added.idToToken(5), added.isSpecial('new'), added.isSpecial('is')]).toEqual(['world', true, false]); // a normalized token decodes to its normalized form
  });

  it('finds tokens with their flags: single_word, lstrip and rstrip, normalized ones in the normalized text', () => {
    expect(split('this is a <m>  a')).toEqual(['this ', 2, ' a', 4, 'a']);
    expect(split('isthis is')).toEqual(['isthis ', 2]);
    expect(split('WORLD world')).toEqual([5, ' ', 5]);
  });

  it('requires every flag, as the library does', () => {
    expect(() => new AddedVocabulary([{ id: 5, content: 'x', special: true }], model, undefined, 'Tokenizer')).toThrow(InvalidArgumentError);
    expect(() => new AddedVocabulary([{ id: 5, content: 'x', special: true }], model, undefined, 'Tokenizer')).toThrow("Tokenizer: 'tokenizer.json added_tokens[0].single_word' must be a boolean (the tokenizers library requires every flag); received undefined.");
  });
});
