import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { createModel } from './create-model.js';

const model = (json: Record<string, unknown>) => createModel(ComponentConfig.of(json, 'model', 'Tokenizer', false));

describe('createModel', () => {
  it('reads a model without "type" as the first its fields make (BPE, WordPiece, WordLevel, Unigram)', () => {
    expect(model({ vocab: { a: 0, b: 1, ab: 2 }, merges: ['a b'] }).tokenize('ab')).toEqual([{ id: 2, token: 'ab' }]);
    expect(model({ vocab: [['a', 0]], unk_id: null }).tokenize('a')).toEqual([{ id: 0, token: 'a' }]);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ type: 'BPE', vocab: { a: 0 }, merges: [], dropout: 0.1 }, `Tokenizer: 'tokenizer.json model.dropout (BPE)' must be null or 0 (dropout skips merges at random, so the ids of a text cannot be reproduced); received 0.1. Set "dropout": null for inference.`],
    [{ type: 'BPE', vocab: { a: 0, b: 1 }, merges: ['a b'] }, `Tokenizer: 'tokenizer.json model.merges[0] (BPE)' must be tokens of the vocabulary that merge into a token of the vocabulary (the tokenizers library refuses others); received ["a","b"]. "ab" is not in model.vocab.`],
    [{ type: 'BPE', vocab: { a: 0 }, merges: ['a b c'] }, `Tokenizer: 'tokenizer.json model.merges[0] (BPE)' must be two tokens separated by one space; received "a b c".`],
    [{ type: 'WordPiece', vocab: { a: 0 }, unk_token: '[UNK]', continuing_subword_prefix: '##' }, "Tokenizer: 'tokenizer.json model.max_input_chars_per_word (WordPiece)' must be an integer from 0 to 9007199254740991; received undefined."],
    [{ type: 'Unigram', vocab: [['a', 0]], unk_id: 1 }, "Tokenizer: 'tokenizer.json model.unk_id (Unigram)' must be null or an index into the vocabulary (0 to 0); received 1."],
    [{ vocab: { a: 0 } }, "Tokenizer: 'tokenizer.json model.type' must be one of WordPiece, BPE, Unigram, WordLevel, or the fields of one; received undefined."],
  ])('refuses %j by name', (json, message) => {
    const error = thrown(() => model(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
