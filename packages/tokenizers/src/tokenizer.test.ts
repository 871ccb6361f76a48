import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import corpus from '@attnkit/reference/fixtures/tokenizer-corpus.json' with { type: 'json' };
import { Tokenizer } from './tokenizer.js';
import { loadTokenizer } from './load-tokenizer.js';
import { tokenizerJsonFromVocab } from './tokenizer-json/vocab-tokenizer-json.js';

const folder = decodeURIComponent(new URL('../../models/assets/attnkit-tiny-bert/', import.meta.url).pathname);
const { sentences, ids } = (corpus as unknown as { cases: { corpus: { sentences: string[]; ids: number[][] } } }).cases.corpus;
const tokenizer = await loadTokenizer(folder);

describe('the embedded BERT tokenizer', () => {
  it('has the bert-base-uncased ids of well-known tokens', () => {
    expect(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'hello', '##s'].map((t) => tokenizer.tokenToId(t))).toEqual([0, 100, 101, 102, 103, 1996, 7592, 2015]);
  });

  it(`agrees token for token with an independent Python WordPiece reference on ${sentences.length} sentences`, () => {
    const disagreements = sentences.filter((sentence, i) => {
      const ours = tokenizer.encode([sentence], { truncation: false, maxLength: 512 }).inputIds[0]!.slice(1, -1); // without [CLS] ... [SEP]
      return ours.join() !== ids[i]!.join();
    });
    console.log(`tokenizer agreement: ${sentences.length - disagreements.length} / ${sentences.length}`);
    expect(disagreements).toEqual([]);
    expect(sentences.length).toBeGreaterThanOrEqual(200);
  });

  it('builds the same tokenizer from vocab.txt alone (folders without tokenizer.json)', () => {
    const json = JSON.parse(readFileSync(`${folder}tokenizer.json`, 'utf8')) as { model: { vocab: Record<string, number> } };
    const vocabTxt = Object.entries(json.model.vocab).sort((a, b) => a[1] - b[1]).map(([t]) => t).join('\n');
    const fromVocab = new Tokenizer(tokenizerJsonFromVocab(vocabTxt, { lowercase: true }));
    for (const sentence of sentences.slice(0, 60)) expect(fromVocab.encode([sentence]).inputIds).toEqual(tokenizer.encode([sentence]).inputIds);
  });

  it('pads to the longest, marks padding in the mask, and sets token types for pairs', () => {
    const batch = tokenizer.encode(['hello world', ['the cat sat', 'on the mat']]);
    expect(batch.tokens).toEqual([['[CLS]', 'hello', 'world', '[SEP]'], ['[CLS]', 'the', 'cat', 'sat', '[SEP]', 'on', 'the', 'mat', '[SEP]']]);
    expect(batch.inputIds[0]).toEqual([101, 7592, 2088, 102, 0, 0, 0, 0, 0]);
    expect(batch.attentionMask[0]).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0]);
    expect(batch.tokenTypeIds[1]).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it('truncates the longest side first and pads to max_length when asked', () => {
    const long = 'one two three four five six seven eight nine ten';
    const batch = tokenizer.encode([[long, 'short']], { maxLength: 8, padding: 'max_length' });
    expect(batch.tokens[0]).toEqual(['[CLS]', 'one', 'two', 'three', 'four', '[SEP]', 'short', '[SEP]']);
    expect(tokenizer.encode(['hi'], { maxLength: 6, padding: 'max_length' }).inputIds[0]).toHaveLength(6);
    expect(tokenizer.decode(batch.inputIds[0]!)).toBe('one two three four short');
  });

  it('reads each text once: a hole in a sparse list is refused, and a proxy cannot swap a text after its check', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(thrown(() => tokenizer.encode(['hello', , 'world'] as never)).message).toBe("Tokenizer.encode: 'texts[1]' must be a string or a [string, string] pair; received undefined.");
    let reads = 0;
    const swapping = new Proxy(['hello'], { get: (target, key, receiver) => (key === '0' ? (reads++ === 0 ? 'hello' : 42) : Reflect.get(target, key, receiver)) });
    expect(tokenizer.encode(swapping).tokens).toEqual([['[CLS]', 'hello', '[SEP]']]);
    let pairReads = 0;
    const pair = new Proxy(['the cat', 'sat'], { get: (target, key, receiver) => (key === '1' ? (pairReads++ === 0 ? 'sat' : 7) : Reflect.get(target, key, receiver)) });
    expect(tokenizer.encode([pair as unknown as [string, string]]).tokens[0]).toEqual(['[CLS]', 'the', 'cat', '[SEP]', 'sat', '[SEP]']);
  });

  it('returns every id with truncation: false, however long', () => {
    const batch = tokenizer.encode(['one two three four', 'one'], { maxLength: 4, truncation: false });
    expect(batch.tokens[0]).toEqual(['[CLS]', 'one', 'two', 'three', 'four', '[SEP]']);
    expect(batch.attentionMask[1]).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it.each<[() => unknown, string]>([
    [() => tokenizer.encode([]), "Tokenizer.encode: 'texts' must be a non-empty list of strings or [string, string] pairs; received array []."],
    [() => tokenizer.encode([42 as never]), "Tokenizer.encode: 'texts[0]' must be a string or a [string, string] pair; received number 42."],
    [() => tokenizer.encode(['a'], { maxLength: 2 }), "Tokenizer.encode: 'maxLength' must be an integer ≥ 3; received number 2."],
    [() => tokenizer.encode(['a', 'a b'], { padding: false }), "Tokenizer.encode: 'padding' must be 'longest' or 'max_length' for sequences of different lengths; received false."],
    // found by tooling/reliability/src/fuzz/tokenizer-encode.fuzz.test.ts: 2^33 was an untyped RangeError ("Invalid array length"); 1e9 ran the process out of memory
    [() => tokenizer.encode(['a'], { maxLength: 2 ** 33, padding: 'max_length' }), "Tokenizer.encode: 'maxLength' must be at most 1048576 with padding: 'max_length' (every row is padded to it); received 8589934592. padding: 'longest' pads to the longest sequence only."],
    [() => tokenizerJsonFromVocab('a\nb\n'), "tokenizerJsonFromVocab: 'vocab.txt' must be the BERT special tokens [PAD], [UNK], [CLS], [SEP], [MASK]; received a vocabulary of 2 tokens without [PAD], [UNK], [CLS], [SEP], [MASK]."],
  ])('rejects bad input %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});

describe('Tokenizer.encode options', () => {
  const long = 'one two three four five six seven eight nine ten';
  it("truncates only the named side of a pair with 'only_first' / 'only_second', as Hugging Face's tokenizers do", () => {
    expect(tokenizer.encode([[long, 'the cat sat']], { truncation: 'only_first', maxLength: 8 }).tokens[0]).toEqual(['[CLS]', 'one', 'two', '[SEP]', 'the', 'cat', 'sat', '[SEP]']);
    expect(tokenizer.encode([['the cat sat', long]], { truncation: 'only_second', maxLength: 8 }).tokens[0]).toEqual(['[CLS]', 'the', 'cat', 'sat', '[SEP]', 'one', 'two', '[SEP]']);
    expect(tokenizer.encode([['a b', 'c d']], { truncation: 'only_second', maxLength: 8 }).tokens[0]).toEqual(['[CLS]', 'a', 'b', '[SEP]', 'c', 'd', '[SEP]']); // fits: untouched
    expect(tokenizer.encode([long], { truncation: 'only_first', maxLength: 5 }).tokens[0]).toEqual(['[CLS]', 'one', 'two', 'three', '[SEP]']);
    expect(tokenizer.encode([long], { truncation: 'do_not_truncate', maxLength: 5 }).tokens[0]).toHaveLength(12);
  });

  it.each<[() => unknown, string]>([
    [() => tokenizer.encode(['a'], null as never), "Tokenizer.encode: 'options' must be an options object; received null."],
    [() => tokenizer.encode(['a'], { max_length: 6 } as never), "Tokenizer.encode: 'options' must be an object with only the keys padding, truncation, maxLength, paddingSide; received the unknown key 'max_length'. Did you mean 'maxLength'?"],
    [() => tokenizer.encode(['a'], { truncation: 'yes' } as never), "Tokenizer.encode: 'truncation' must be true, false, 'longest_first', 'only_first', 'only_second' or 'do_not_truncate'; received string 'yes'."],
    [() => tokenizer.encode(['a'], { padding: true } as never), "Tokenizer.encode: 'padding' must be 'longest', 'max_length' or false; received boolean true."],
    [() => tokenizer.encode([[long, 'the cat sat']], { truncation: 'only_second', maxLength: 8 }), "Tokenizer.encode: 'texts[0]' must be a second sequence that 'only_second' truncation can shorten to fit maxLength = 8 (it must keep at least one token); received 8 tokens to remove, and the second sequence has 3. Use truncation: 'longest_first' (the default), or a larger maxLength."],
    [() => tokenizer.encode([long], { truncation: 'only_second', maxLength: 6 }), "Tokenizer.encode: 'texts[0]' must be a second sequence that 'only_second' truncation can shorten to fit maxLength = 6 (it must keep at least one token); received a single text of 10 tokens, 6 over the room for text; it has no second sequence. Use truncation: 'longest_first' (the default), or a larger maxLength."],
  ])('refuses bad options with a typed error %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
