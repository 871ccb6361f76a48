import { tensor1d, tensor2d } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import reference from '@attnkit/reference/fixtures/rerank/semantic-search.json' with { type: 'json' };
import { semanticSearch } from './semantic-search.js';
import type { EmbeddingRows } from './embedding-rows.js';
import type { SearchHit } from './top-hits.js';

// semanticSearch against sentence_transformers.util.semantic_search (6.0.1) on seeded float32
// embeddings, some corpus rows repeated so that scores tie exactly (tooling/reference/make_rerank_fixtures.py).
interface Case {
  readonly score_function: 'cos_sim' | 'dot_score';
  readonly top_k: number;
  readonly query_chunk_size: number;
  readonly corpus_chunk_size: number;
  readonly hits: { corpus_id: number; score: number }[][];
}
const FIXTURE = reference as unknown as { dim: number; queries: number[][]; corpus: number[][]; cases: Case[] };
const BACKENDS = await availableBackends();
const TOLERANCE = 1e-6;
/** Node: cpu and wasm; Chromium: every backend it has. */
const SEARCHED = BACKENDS.filter((b) => b === 'cpu' || b === 'wasm' || typeof document !== 'undefined');
const FUNCTION = { cos_sim: 'cosine', dot_score: 'dot' } as const;
let worst = 0;

/** Same hits in the same order, rows of exactly equal reference scores in either order (also across the top-k cut), scores ≤ 1e-6 apart. */
function expectSameHits(got: SearchHit[], want: Case['hits'][number], label: string): void {
  expect(got.length, label).toBe(want.length);
  want.forEach((w, i) => {
    const g = got[i]!;
    worst = Math.max(worst, Math.abs(g.score - w.score));
    expect(Math.abs(g.score - w.score), `${label} score ${i}`).toBeLessThanOrEqual(TOLERANCE);
    if (g.corpusId !== w.corpus_id) {
      const row = (id: number) => JSON.stringify(FIXTURE.corpus[id]);
      expect(row(g.corpusId), `${label} hit ${i}: ${g.corpusId} instead of ${w.corpus_id}, only if they are the same row`).toBe(row(w.corpus_id));
    }
  });
}

beforeAll(() => useBackend('cpu'));
afterAll(async () => {
  console.log(`\nsemanticSearch vs util.semantic_search: ${FIXTURE.cases.length} cases × tensors and embedding rows on ${SEARCHED.join(', ')}; worst score difference ${worst.toExponential(1)}\n`);
  await useBackend('cpu');
});

describe('semanticSearch equals sentence_transformers.util.semantic_search', () => {
  it('has the cases: cos_sim and dot_score, top_k from 1 past the corpus, small chunks', () => {
    expect(FIXTURE.cases.length).toBe(13);
    expect(new Set(FIXTURE.cases.map((c) => c.score_function))).toEqual(new Set(['cos_sim', 'dot_score']));
    expect(Math.max(...FIXTURE.cases.map((c) => c.top_k))).toBeGreaterThan(FIXTURE.corpus.length);
  });

  for (const backend of SEARCHED) {
    it(`on ${backend}: same ids in the same order, scores ≤ 1e-6, for tensors and for embedding rows read in chunks`, async () => {
      await useBackend(backend);
      const queries = tensor2d(FIXTURE.queries);
      const corpus = tensor2d(FIXTURE.corpus);
      const values = Float32Array.from(FIXTURE.corpus.flat());
      const reads: number[] = [];
      const rows: EmbeddingRows = { rows: FIXTURE.corpus.length, dim: FIXTURE.dim, read: async (start, count) => (reads.push(count), values.slice(start * FIXTURE.dim, (start + count) * FIXTURE.dim)) };
      for (const c of FIXTURE.cases) {
        const options = { topK: c.top_k, scoreFunction: FUNCTION[c.score_function], queryChunkSize: c.query_chunk_size, corpusChunkSize: c.corpus_chunk_size };
        const label = `${backend} ${c.score_function} top_k ${c.top_k} chunks ${c.query_chunk_size}/${c.corpus_chunk_size}`;
        const fromTensors = await semanticSearch(queries, corpus, options);
        const fromRows = await semanticSearch(queries, rows, options);
        expect(fromTensors.length).toBe(c.hits.length);
        c.hits.forEach((want, q) => {
          expectSameHits(fromTensors[q]!, want, `${label} query ${q}`);
          expectSameHits(fromRows[q]!, want, `${label} rows, query ${q}`);
        });
      }
      expect(Math.max(...reads)).toBeLessThanOrEqual(FIXTURE.corpus.length);
      expect(await leaksOf(() => semanticSearch(queries, rows, { topK: 3, corpusChunkSize: 7 }))).toEqual({ tensors: 0, bytes: 0 });
      queries.dispose();
      corpus.dispose();
    }, 60_000);
  }

  it('takes one query as a vector [E], as semantic_search does', async () => {
    await useBackend('cpu'); // the same kernels for [E] and [1, E]: the hits are bit-identical
    const all = tensor2d(FIXTURE.queries);
    const first = tensor1d(FIXTURE.queries[0]!);
    const corpus = tensor2d(FIXTURE.corpus);
    expect(await semanticSearch(first, corpus, { topK: 4 })).toEqual([(await semanticSearch(all, corpus, { topK: 4 }))[0]]);
    [all, first, corpus].forEach((t) => t.dispose());
  });
});
