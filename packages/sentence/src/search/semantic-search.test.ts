import { tensor2d, zeros } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { semanticSearch } from './semantic-search.js';
import type { EmbeddingRows } from './embedding-rows.js';

const queries = () => tensor2d([[1, 0, 0], [0, 1, 0]]);
const corpus = () => tensor2d([[1, 0, 0], [0.5, 0.5, 0], [0, 0, 1], [1, 0, 0]]);
let q: ReturnType<typeof queries>;
let c: ReturnType<typeof corpus>;
beforeAll(async () => {
  await useBackend('cpu');
  q = queries();
  c = corpus();
});
afterAll(() => [q, c].forEach((t) => t.dispose()));

describe('semanticSearch: what it refuses, and what it gives for empty input', () => {
  it.each([
    ['topK 0', { topK: 0 }, "semanticSearch: 'topK' must be an integer from 1 to 9007199254740991; received number 0."],
    ['a fractional topK', { topK: 2.5 }, "semanticSearch: 'topK' must be an integer from 1 to 9007199254740991; received number 2.5."],
    ['topK Infinity', { topK: Infinity }, "semanticSearch: 'topK' must be an integer from 1 to 9007199254740991; received number Infinity."],
    ['a score function it does not have', { scoreFunction: 'cos_sim' }, "semanticSearch: 'scoreFunction' must be 'cosine', 'dot', 'euclidean', 'manhattan'; received string 'cos_sim'."],
    ['corpusChunkSize 0', { corpusChunkSize: 0 }, "semanticSearch: 'corpusChunkSize' must be an integer ≥ 1; received number 0."],
    ['a misspelled option', { top_k: 3 }, /semanticSearch: 'options' .*'top_k'/],
  ])('refuses %s', async (_, options, message) => {
    await expect(semanticSearch(q, c, options as never)).rejects.toThrow(InvalidArgumentError);
    await expect(semanticSearch(q, c, options as never)).rejects.toThrow(message);
  });

  it('refuses a corpus of another width, and inputs that are not float32 embeddings', async () => {
    const wide = tensor2d([[1, 0, 0, 0]]);
    await expect(semanticSearch(q, wide)).rejects.toThrow("semanticSearch: 'corpusEmbeddings' must be rows of width E = 3, as the queries; received rows of width 4. Embed the queries with the model that embedded the corpus.");
    wide.dispose();
    const ids = tensor2d([[1, 2, 3]], undefined, 'int32');
    await expect(semanticSearch(ids, c)).rejects.toThrow(/^semanticSearch: 'queryEmbeddings' must be/);
    ids.dispose();
    await expect(semanticSearch(q, [[1, 0, 0]] as never)).rejects.toThrow("semanticSearch: 'corpusEmbeddings' must be a float32 tensor [N, E] or embedding rows { rows, dim, read(start, count) }; received array [[1,0,0]].");
    await expect(semanticSearch(q, { rows: 2.5, dim: 3, read: () => new Float32Array(3) })).rejects.toThrow("semanticSearch: 'corpusEmbeddings.rows' must be an integer from 0 to 1099511627776; received number 2.5.");
  });

  it('refuses a reader that gives a chunk of the wrong length, leaving no tensor', async () => {
    const short: EmbeddingRows = { rows: 4, dim: 3, read: (_, count) => new Float32Array(count * 3 - 1) };
    await expect(semanticSearch(q, short)).rejects.toThrow("semanticSearch: 'corpusEmbeddings.read(0, 4)' must be a Float32Array of 4 × 3 = 12 values; received a Float32Array of 11 values.");
  });

  it('gives every row for a topK past the corpus, none for an empty corpus, nothing for no queries', async () => {
    const all = await semanticSearch(q, c, { topK: 1e9 });
    expect(all[0]!.map((h) => h.corpusId)).toEqual([0, 3, 1, 2]); // rows 0 and 3 tie: corpus order
    const empty = zeros([0, 3]);
    expect(await semanticSearch(q, empty)).toEqual([[], []]);
    expect(await semanticSearch(empty, c)).toEqual([]);
    empty.dispose();
  });

  it('scores by the dot product and the negative distances too', async () => {
    expect((await semanticSearch(q, c, { scoreFunction: 'dot', topK: 2 }))[1]).toEqual([{ corpusId: 1, score: 0.5 }, { corpusId: 0, score: 0 }]);
    expect((await semanticSearch(q, c, { scoreFunction: 'euclidean', topK: 1 }))[0]).toEqual([{ corpusId: 0, score: -0 }]);
  });
});
