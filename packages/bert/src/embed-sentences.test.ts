import { tensor2d, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf } from '@attnkit/test-utils';
import type { BertModel } from './bert-model.js';
import type { BertTokenizer } from './bert-tokenizer.js';
import { embedSentences } from './embed-sentences.js';
import { loadBert } from './load-bert.js';
import { loadTokenizer } from './load-tokenizer.js';
import { clsPooling, l2Normalize, meanPooling } from './sentence-embedding.js';

const folder = decodeURIComponent(new URL('../assets/attnkit-tiny-bert/', import.meta.url).pathname);
const texts: Array<string | [string, string]> = [
  'A short one.',
  'This sentence is quite a bit longer than the first one, with commas, clauses and more words to pad against.',
  '',
  ['A question?', 'And an answer that is longer than the question.'],
  'Mid-length text about attention masks.',
  'Tiny',
  'Another sentence of moderate length, here.',
  'x '.repeat(40),
  'Naïve café déjà vu',
  'Two words',
  'The quick brown fox jumps over the lazy dog.',
];

let tokenizer: BertTokenizer;
beforeAll(async () => {
  tokenizer = await loadTokenizer(folder);
});

/** Each text alone, unpadded: the reference bucketing must reproduce. */
function oneByOne(model: BertModel, pooling: 'mean' | 'cls'): Tensor[] {
  return texts.map((text) =>
    tidy(() => {
      const encoded = tokenizer.encode([text]);
      const out = model.forward({ inputIds: encoded.inputIds, tokenTypeIds: encoded.tokenTypeIds });
      return pooling === 'cls' ? clsPooling(out.lastHiddenState) : meanPooling(out.lastHiddenState, tensor2d(encoded.attentionMask, undefined, 'int32'));
    }),
  );
}

describe.each(['cpu', 'wasm'] as const)('embedSentences on %s', (backend) => {
  let model: BertModel;
  beforeAll(async () => {
    await useBackend(backend);
    model = await loadBert(folder);
  });
  afterAll(() => model.dispose());

  it('equals each text embedded alone (≤ 1e-5), in input order, with batches padded only to their own longest', async () => {
    const progress: Array<[number, number]> = [];
    const embeddings = await embedSentences(model, tokenizer, texts, { batchSize: 3, onProgress: (done, total) => progress.push([done, total]) });
    expect(embeddings.shape).toEqual([texts.length, model.config.hiddenSize]);
    const rows = (await embeddings.array()) as number[][];
    const alone = oneByOne(model, 'mean');
    for (let i = 0; i < texts.length; i++) expect({ i, diff: maxDifference(rows[i]!, await alone[i]!.data()).maxAbsDiff < 1e-5 }).toEqual({ i, diff: true });
    expect(progress).toEqual([[3, 11], [6, 11], [9, 11], [11, 11]]);
    [embeddings, ...alone].forEach((t) => t.dispose());
  });

  it('pools [CLS] and normalises on request; no texts give [0, E]; leaks nothing', async () => {
    const embeddings = await embedSentences(model, tokenizer, texts, { batchSize: 4, pooling: 'cls', normalize: true });
    const alone = oneByOne(model, 'cls');
    const expected = tidy(() => l2Normalize(tensor2d(alone.map((t) => Array.from(t.dataSync())))));
    expect(maxDifference(await embeddings.data(), await expected.data()).maxAbsDiff).toBeLessThan(1e-5);
    const none = await embedSentences(model, tokenizer, []);
    expect(none.shape).toEqual([0, model.config.hiddenSize]);
    expect(await leaksOf(async () => (await embedSentences(model, tokenizer, texts.slice(0, 5), { batchSize: 2 })).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [embeddings, expected, none, ...alone].forEach((t) => t.dispose());
  });
});

describe('embedSentences, bad inputs', () => {
  let model: BertModel;
  beforeAll(async () => {
    await useBackend('cpu');
    model = await loadBert(folder);
  });
  afterAll(() => model.dispose());

  it.each([
    [{ batchSize: 0 }, "embedSentences: 'batchSize' must be an integer ≥ 1; received number 0."],
    [{ batchSize: 2.5 }, "embedSentences: 'batchSize' must be an integer ≥ 1; received number 2.5."],
    [{ pooling: 'max' }, "embedSentences: 'pooling' must be 'mean' or 'cls'; received \"max\"."],
  ])('%j → a typed error', async (options, message) => {
    const error = await embedSentences(model, tokenizer, ['a'], options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(message);
  });

  it('names a bad entry (from the tokenizer) and a texts argument that is not a list', async () => {
    const entry = await embedSentences(model, tokenizer, ['fine', 42 as never]).catch((e: unknown) => e);
    expect([entry instanceof InvalidArgumentError, (entry as Error).message]).toEqual([true, "BertTokenizer.encode: 'texts[1]' must be a string or a [string, string] pair; received 42."]);
    const notList = await embedSentences(model, tokenizer, 'one text' as never).catch((e: unknown) => e);
    expect([notList instanceof InvalidArgumentError, (notList as Error).message]).toEqual([true, "embedSentences: 'texts' must be a list of strings or [string, string] pairs; received string."]);
  });
});
