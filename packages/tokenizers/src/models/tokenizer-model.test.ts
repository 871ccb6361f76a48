import { describe, expect, it } from 'vitest';
import { MissingUnknownToken, vocabularyMaps } from './tokenizer-model.js';

describe('vocabularyMaps', () => {
  it('keeps "__proto__" and "constructor" as ordinary tokens, both ways', () => {
    const { ids, tokens } = vocabularyMaps(JSON.parse('{"a":0,"__proto__":1,"constructor":2}') as Record<string, unknown>);
    expect([ids.get('__proto__'), ids.get('constructor'), tokens.get(1), ids.get('toString')]).toEqual([1, 2, '__proto__', undefined]);
  });
});

describe('MissingUnknownToken', () => {
  it('names the piece that had no token', () => {
    expect(new MissingUnknownToken('xyz').message).toBe('no unknown token for "xyz"');
  });
});
