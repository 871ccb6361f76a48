import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { checkTokenizerJson } from './check-tokenizer-json.js';

const wordPiece = (vocab: unknown, extra: Record<string, unknown> = {}) => ({ model: { type: 'WordPiece', unk_token: '[UNK]', vocab }, added_tokens: [], ...extra });
const check = (json: unknown) => () => checkTokenizerJson(json as Record<string, unknown>, 'loadTokenizer');

describe('checkTokenizerJson', () => {
  it('accepts real shapes, with "__proto__" and "constructor" as ordinary tokens', () => {
    expect(check(wordPiece(JSON.parse('{"[UNK]":0,"__proto__":1,"constructor":2,"prototype":3}')))).not.toThrow();
    expect(check({ model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2 }, merges: ['a b'] } })).not.toThrow();
    expect(check({ model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2 }, merges: [['a', 'b']] } })).not.toThrow();
    expect(check({ model: { type: 'Unigram', unk_id: 0, vocab: [['<unk>', 0], ['▁a', -1.5]] } })).not.toThrow();
    expect(check({ model: { vocab: [['<unk>', 0]] }, added_tokens: [{ id: 0, content: '<unk>', special: true }] })).not.toThrow();
  });

  it('refuses objects, fractions, negative and huge numbers as ids, naming a few offenders', () => {
    const polluted = JSON.parse('{"[UNK]":0,"hello":5,"__proto__":{"x":1},"constructor":{"y":2}}');
    expect(check(wordPiece(polluted))).toThrow(InvalidArgumentError);
    expect(check(wordPiece(polluted))).toThrow(`loadTokenizer: 'tokenizer.json model.vocab' must be integer ids in [0, 2147483647] for every token; received 2 other values: "__proto__": {"x":1}, "constructor": {"y":2}.`);
    expect(check(wordPiece({ a: 1.5, b: -1, c: 2 ** 31, d: '3', e: null }))).toThrow(/received 5 other values: "a": 1\.5, "b": -1, "c": 2147483648 and 2 more\.$/);
  });

  it('refuses a model that is missing or of an unknown type', () => {
    expect(check(null)).toThrow("loadTokenizer: 'tokenizer.json' must be a JSON object; received null.");
    expect(check({})).toThrow("loadTokenizer: 'tokenizer.json model' must be an object; received undefined.");
    expect(check({ model: { type: 'constructor', vocab: {} } })).toThrow(`'tokenizer.json model.type' must be one of "WordPiece", "BPE", "Unigram", "WordLevel"; received "constructor".`);
    expect(check({ model: { type: 'WordPiece', vocab: [] } })).toThrow("'tokenizer.json model.vocab' must be an object of token → id; received [].");
  });

  it('refuses broken Unigram vocabularies and unk ids outside them', () => {
    expect(check({ model: { type: 'Unigram', vocab: [['a', 0], ['b', 'x'], [1, 0], ['c', null]] } })).toThrow(/'tokenizer\.json model\.vocab' must be a list of \[piece, finite score\] pairs; received 3 other entries: \[1\] \["b","x"\], \[2\] \[1,0\], \[3\] \["c",null\]\.$/);
    expect(check({ model: { type: 'Unigram', unk_id: 2, vocab: [['a', 0], ['b', 0]] } })).toThrow("'tokenizer.json model.unk_id' must be null or an index into the vocabulary (0 to 1); received 2.");
    expect(check({ model: { type: 'Unigram', unk_id: { a: 1 }, vocab: [['a', 0]] } })).toThrow(InvalidArgumentError);
  });

  it('refuses BPE merges and added tokens that are not data of the right kind', () => {
    expect(check({ model: { type: 'BPE', vocab: { a: 0 } } })).toThrow("'tokenizer.json model.merges' must be a list of merges (BPE); received undefined.");
    expect(check({ model: { type: 'BPE', vocab: { a: 0 }, merges: ['ab', ['a'], 3] } })).toThrow(/received 3 other entries/);
    expect(check(wordPiece({ a: 0 }, { added_tokens: [{ id: { n: 1 }, content: '[X]' }] }))).toThrow(/'tokenizer\.json added_tokens' must be objects with an integer id/);
    expect(check(wordPiece({ a: 0 }, { added_tokens: [{ id: 3, content: 7 }] }))).toThrow(InvalidArgumentError);
    expect(check(wordPiece({ a: 0 }, { added_tokens: {} }))).toThrow("'tokenizer.json added_tokens' must be a list; received {}.");
  });

  it('keeps the message short for a vocabulary of 100 000 bad ids', () => {
    const vocab = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`t${i}`, -i - 1]));
    let message = '';
    try { checkTokenizerJson(wordPiece(vocab), 'loadTokenizer'); } catch (error) { message = (error as Error).message; }
    expect(message).toMatch(/received 100000 other values: "t0": -1, "t1": -2, "t2": -3 and 99997 more\.$/);
    expect(message.length).toBeLessThan(300);
  });
});
