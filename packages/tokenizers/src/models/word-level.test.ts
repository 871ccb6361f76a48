import { describe, expect, it } from 'vitest';
import { MissingUnknownToken } from './tokenizer-model.js';
import { wordLevel } from './word-level.js';

describe('wordLevel', () => {
  it('gives a word its id or the unknown token (tokenizers 0.23 models.WordLevel)', () => {
    const model = wordLevel({ hello: 0, '[UNK]': 1 }, '[UNK]');
    expect([model.tokenize('hello'), model.tokenize('bye')]).toEqual([[{ id: 0, token: 'hello' }], [{ id: 1, token: '[UNK]' }]]);
    expect([model.size, model.tokenToId('hello'), model.idToToken(1)]).toEqual([2, 0, '[UNK]']);
    expect(() => wordLevel({ hello: 0 }, '[UNK]').tokenize('bye')).toThrow(MissingUnknownToken);
  });
});
