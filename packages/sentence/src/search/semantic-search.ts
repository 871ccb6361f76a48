import { reshape, tidy, topk, transpose, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { linear } from '@attnkit/nn';
import { l2Normalize } from '../l2-normalize.js';
import { checkAbortSignal, checkInteger, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { similarity, SIMILARITY_FUNCTIONS, type SimilarityFunction } from '../similarity.js';
import { rowSource, type EmbeddingRows } from './embedding-rows.js';
import { TopHits, type SearchHit } from './top-hits.js';

/** Options of {@link semanticSearch}, named like `sentence_transformers.util.semantic_search`'s. */
export interface SemanticSearchOptions {
  /** Hits per query (default 10); a corpus with fewer rows gives all of them. */
  readonly topK?: number;
  /** `'cosine'` (default: `cos_sim`), `'dot'` (`dot_score`), `'euclidean'` or `'manhattan'` (negative distances): higher is more similar. */
  readonly scoreFunction?: SimilarityFunction;
  /** Queries scored at a time (default 100). */
  readonly queryChunkSize?: number;
  /**
   * Corpus rows scored at a time: default 500 000 for a tensor (as sentence-transformers), and for
   * {@link EmbeddingRows} as many as fit 4 MiB of float32 (so a corpus read from disk takes bounded memory).
   */
  readonly corpusChunkSize?: number;
  /** Stops between chunks: the call rejects with the signal's reason (an `AbortError`). */
  readonly signal?: AbortSignal;
}

const OPTION_KEYS = ['topK', 'scoreFunction', 'queryChunkSize', 'corpusChunkSize', 'signal'] as const;
/** Corpus rows read at a time from {@link EmbeddingRows} by default: 4 MiB of float32. */
const ROWS_CHUNK_BYTES = 4 * 2 ** 20;

/**
 * Finds the `topK` corpus rows most similar to each query, equal to sentence-transformers'
 * `util.semantic_search`: queries `[Q, E]` (or one `[E]`) against a corpus `[N, E]`, scored chunk by
 * chunk (`queryChunkSize` queries × `corpusChunkSize` rows; each chunk's best kept), → for each query
 * its hits `{ corpusId, score }`, best first. Hits of exactly equal scores come in corpus order
 * (sentence-transformers leaves their order open). Either side may be {@link EmbeddingRows} read
 * chunk by chunk (a `.npy` file on disk: `npyEmbeddings` of `@attnkit/cli`), so memory stays bounded
 * by a chunk and the hits whatever the corpus's size. Runs on the current backend; leaves no tensor.
 *
 * @example
 * const hits = await semanticSearch(queries, corpus, { topK: 5 }); // queries [Q, E], corpus [N, E]
 * hits[0][0]; // { corpusId: 17, score: 0.83 }: the best row for the first query
 */
export async function semanticSearch(queryEmbeddings: Tensor | EmbeddingRows, corpusEmbeddings: Tensor | EmbeddingRows, options: SemanticSearchOptions = {}): Promise<SearchHit[][]> {
  const caller = 'semanticSearch';
  const queries = rowSource(queryEmbeddings, { caller, argument: 'queryEmbeddings', vector: true });
  const corpus = rowSource(corpusEmbeddings, { caller, argument: 'corpusEmbeddings' });
  checkObject(options, { caller, argument: 'options' });
  checkOptionKeys(options, OPTION_KEYS, caller);
  if (corpus.dim !== queries.dim) throw new InvalidArgumentError({ caller, argument: 'corpusEmbeddings', expected: `rows of width E = ${queries.dim}, as the queries`, received: `rows of width ${corpus.dim}`, hint: 'Embed the queries with the model that embedded the corpus.' });
  const topK = checkInteger(options.topK === undefined ? 10 : options.topK, { caller, argument: 'topK', min: 1, max: Number.MAX_SAFE_INTEGER });
  const scoreFunction = options.scoreFunction === undefined ? 'cosine' : options.scoreFunction; // null is refused below, never read as absent
  if (!(SIMILARITY_FUNCTIONS as readonly unknown[]).includes(scoreFunction)) throw new InvalidArgumentError({ caller, argument: 'scoreFunction', expected: SIMILARITY_FUNCTIONS.map((f) => `'${f}'`).join(', '), received: describeValue(scoreFunction) });
  const queryChunk = checkInteger(options.queryChunkSize === undefined ? 100 : options.queryChunkSize, { caller, argument: 'queryChunkSize', min: 1 });
  const tensorCorpus = !('read' in (corpusEmbeddings as object)) || typeof (corpusEmbeddings as EmbeddingRows).read !== 'function';
  const corpusChunk = checkInteger(options.corpusChunkSize === undefined ? (tensorCorpus ? 500_000 : Math.max(1, Math.floor(ROWS_CHUNK_BYTES / (4 * corpus.dim)))) : options.corpusChunkSize, { caller, argument: 'corpusChunkSize', min: 1 });
  checkAbortSignal(options.signal, { caller });

  const results = Array.from({ length: queries.rows }, () => new TopHits(topK));
  for (let queryStart = 0; queryStart < queries.rows; queryStart += queryChunk) {
    const queryCount = Math.min(queryChunk, queries.rows - queryStart);
    const read = await queries.read(queryStart, queryCount); // [q, E]
    const queryRows = scoreFunction === 'cosine' ? tidy(() => l2Normalize(read)) : read; // normalised once for every corpus chunk
    if (queryRows !== read) read.dispose();
    try {
      for (let corpusStart = 0; corpusStart < corpus.rows; corpusStart += corpusChunk) {
        options.signal?.throwIfAborted();
        const corpusCount = Math.min(corpusChunk, corpus.rows - corpusStart);
        const corpusRows = await corpus.read(corpusStart, corpusCount); // [c, E]
        const k = Math.min(topK, corpusCount);
        let best: { values: Tensor; indices: Tensor };
        try {
          best = tidy(() => topk(scoreChunk(queryRows, corpusRows, scoreFunction), k, true)); // [q, c] -> [q, k] each
        } finally {
          corpusRows.dispose();
        }
        const { values, indices } = best;
        const [scores, ids] = await Promise.all([values.data(), indices.data()]);
        values.dispose();
        indices.dispose();
        for (let q = 0; q < queryCount; q++) {
          const best = results[queryStart + q]!;
          for (let j = 0; j < k; j++) best.add(corpusStart + ids[q * k + j]!, scores[q * k + j]!);
        }
      }
    } finally {
      queryRows.dispose();
    }
  }
  return results.map((best) => best.sorted());
}

/**
 * Scores of queries `[q, E]` (already unit length for `'cosine'`) against a corpus chunk `[c, E]` →
 * `[q, c]`. Cosine and dot run as nn's `linear` with the corpus chunk as its input and the queries
 * as its weight: on wasm attnkit's float32 kernel keeps the queries' packed panels for every chunk
 * and streams each chunk through once (20x tfjs' transpose and matMul, and no chunk is kept in the
 * kernel's memory); the product's values are tfjs matMul's.
 */
function scoreChunk(queries: Tensor2D, corpus: Tensor2D, scoreFunction: SimilarityFunction): Tensor {
  if (scoreFunction !== 'cosine' && scoreFunction !== 'dot') return similarity(queries, corpus, scoreFunction); // [q, c]
  const product = linear(scoreFunction === 'cosine' ? l2Normalize(corpus) : corpus, queries); // [c, E] x [q, E]ᵀ -> [c, q]
  return queries.shape[0] === 1 ? reshape(product, [1, corpus.shape[0]]) : transpose(product); // [c, q] -> [q, c]
}
