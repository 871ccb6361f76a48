import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gather, tensor1d, tidy, type Tensor2D } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder, type SentenceEncoder } from '@attnkit/sentence';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { bagOfWordsEmbedder } from './bag-of-words-embedder.js';
import { evaluateWordnetRetrieval } from './evaluate-wordnet-retrieval.js';

const TINY_BERT = join(dirname(createRequire(import.meta.url).resolve('@attnkit/models/package.json')), 'assets', 'attnkit-tiny-bert');

describe.each(['cpu', 'wasm'])('bagOfWordsEmbedder (%s)', (backend) => {
  let model: SentenceEncoder;
  let table: Tensor2D;
  beforeAll(async () => {
    await useBackend(backend);
    model = await loadSentenceEncoder(TINY_BERT);
    table = model.encoder.stateDict().get('embeddings.word_embeddings.weight') as Tensor2D; // [30522, 64]
  });
  afterAll(() => model.dispose());
  const rows = (tokens: string[]) => tidy(() => gather(table, tensor1d(tokens.map((t) => model.tokenizer.tokenToId(t) as number), 'int32')).arraySync() as number[][]);
  const mean = (vectors: number[][]) => (vectors[0] as number[]).map((_, j) => vectors.reduce((s, v) => s + (v[j] as number), 0) / vectors.length);

  it('is the mean of the word-embedding rows of the real tokens: no [CLS] / [SEP], no padding, no position', async () => {
    const embed = bagOfWordsEmbedder(model, { batchSize: 3 });
    expect(model.tokenizer.encode(['the dog']).tokens[0]).toEqual(['[CLS]', 'the', 'dog', '[SEP]']);
    const out = await embed(['dog', 'the dog', 'the dog barked all night', '']); // two batches; rows padded to different lengths
    expect(out.shape).toEqual([4, 64]);
    const values = out.arraySync();
    const expected = [mean(rows(['dog'])), mean(rows(['the', 'dog'])), mean(rows(model.tokenizer.tokenize('the dog barked all night'))), new Array<number>(64).fill(0)];
    values.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]?.[j] as number, 6)));
    const alone = (await embed(['the dog'])).arraySync()[0] as number[];
    alone.forEach((v, j) => expect(v).toBeCloseTo(values[1]?.[j] as number, 6));
    out.dispose();
    expect(await leaksOf(async () => (await embed(['a', 'b c', 'd e f', 'g'])).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it('plugs into evaluateWordnetRetrieval (a definition that repeats the query words is found)', async () => {
    const heldOut = [
      { id: 'n1', pos: 'n' as const, lemmas: ['dog'], definition: 'a dog that barked', examples: ['the dog barked'] },
      { id: 'n2', pos: 'n' as const, lemmas: ['ocean'], definition: 'a large body of salt water', examples: ['salt water of the ocean'] },
    ];
    expect(await evaluateWordnetRetrieval(bagOfWordsEmbedder(model), heldOut)).toMatchObject({ recallAt1: 1, queries: 2, corpus: 2 });
  });
});

describe('bagOfWordsEmbedder input checks', () => {
  it('refuses what is not a SentenceEncoder, and unknown options', async () => {
    await useBackend('cpu');
    const notModel = thrown(() => bagOfWordsEmbedder({} as SentenceEncoder));
    expect(notModel).toBeInstanceOf(InvalidArgumentError);
    expect(notModel.message).toBe("bagOfWordsEmbedder: 'model' must be a SentenceEncoder (loadSentenceEncoder); received Object.");
    const model = await loadSentenceEncoder(TINY_BERT);
    const unknown = thrown(() => bagOfWordsEmbedder(model, { batch: 8 } as never));
    expect(unknown).toBeInstanceOf(InvalidArgumentError);
    expect(unknown.message).toBe("bagOfWordsEmbedder: 'options' must be an object with only the keys batchSize; received the unknown key 'batch'. Did you mean 'batchSize'?");
    expect(thrown(() => bagOfWordsEmbedder(model, { batchSize: null } as never)).message).toBe("bagOfWordsEmbedder: 'batchSize' must be an integer ≥ 1; received null."); // null is no value: leave it out for the default
    model.dispose();
  });
});
