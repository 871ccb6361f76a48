import { all, cast, expandDims, isFinite as isFiniteTensor, gatherND, greaterEqual, matMul, slice, sum, tensor2d, tidy, type Tensor1D, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkOptionKeys, checkTensor, describeValue, formatShape } from '@attnkit/errors';
import { l2Normalize } from '@attnkit/sentence';

/** Retrieval quality over a set of queries, each with one right corpus row. */
export interface RetrievalMetrics {
  /** Share of queries whose right row ranks first. */
  readonly recallAt1: number;
  /** Share of queries whose right row ranks in the first ten. */
  readonly recallAt10: number;
  /** Mean reciprocal rank of the right row. */
  readonly mrr: number;
  /** The number of queries Q. */
  readonly queries: number;
}

/** Options of {@link retrievalMetrics}. */
export interface RetrievalMetricsOptions {
  /** Queries scored at once against the whole corpus (a `[chunk, C]` score matrix); default ⌊2^22 / C⌋, at least 1. */
  readonly chunkSize?: number;
}

/**
 * Recall@1, recall@10 and MRR of cosine-similarity retrieval: query `q` ranks every corpus row
 * by cosine similarity to it, and `relevant[q]` is the index of its one right row. The rank is
 * pessimistic: 1 + the number of other rows scoring at least as high as the right one, so a tie
 * (duplicate rows, a zero embedding) counts against the query. Queries are scored `chunkSize` at a
 * time, so only `[chunkSize, C]` scores exist at once; the right row's score is read from the same
 * score matrix it is compared with. `queryEmbeddings: [Q, E]`, `corpusEmbeddings: [C, E]`, both
 * float32 and finite; the caller keeps (and disposes) them, nothing else is left behind.
 *
 * @example
 * await retrievalMetrics(tf.tensor2d([[1, 0], [0, 1]]), tf.tensor2d([[0, 1], [1, 0]]), [1, 0]);
 * // { recallAt1: 1, recallAt10: 1, mrr: 1, queries: 2 }
 */
export async function retrievalMetrics(queryEmbeddings: Tensor2D, corpusEmbeddings: Tensor2D, relevant: ArrayLike<number>, options: RetrievalMetricsOptions = {}): Promise<RetrievalMetrics> {
  const caller = 'retrievalMetrics';
  checkOptionKeys(options, ['chunkSize'], caller);
  const queries = checkTensor(queryEmbeddings, { caller, argument: 'queryEmbeddings', dtype: 'float32', rank: 2, shape: '[Q, E]' }) as Tensor2D;
  const corpus = checkTensor(corpusEmbeddings, { caller, argument: 'corpusEmbeddings', dtype: 'float32', rank: 2, shape: '[C, E]' }) as Tensor2D;
  const [numQueries, width] = queries.shape;
  const [numRows, corpusWidth] = corpus.shape;
  if (numQueries === 0 || width === 0) throw new InvalidArgumentError({ caller, argument: 'queryEmbeddings', expected: 'a float32 tensor [Q, E] with Q ≥ 1 and E ≥ 1', received: formatShape(queries.shape) });
  if (numRows === 0 || corpusWidth !== width) throw new InvalidArgumentError({ caller, argument: 'corpusEmbeddings', expected: `a float32 tensor [C, E] with C ≥ 1 and the queries' E = ${width}`, received: formatShape(corpus.shape) });
  const isList = Array.isArray(relevant) || (ArrayBuffer.isView(relevant) && !(relevant instanceof DataView));
  if (!isList || relevant.length !== numQueries) throw new InvalidArgumentError({ caller, argument: 'relevant', expected: `a list of Q = ${numQueries} corpus row indices (one per query)`, received: isList ? `${relevant.length} indices` : describeValue(relevant) });
  for (let q = 0; q < numQueries; q++) checkInteger(relevant[q], { caller, argument: `relevant[${q}]`, min: 0, max: numRows - 1 });
  const chunkSize = checkInteger(options.chunkSize === undefined ? Math.max(1, Math.floor(2 ** 22 / numRows)) : options.chunkSize, { caller, argument: 'chunkSize', min: 1 });

  for (const [argument, x] of [['queryEmbeddings', queries], ['corpusEmbeddings', corpus]] as const) {
    const finite = tidy(() => all(isFiniteTensor(x)));
    const ok = (await finite.data())[0] === 1;
    finite.dispose();
    if (!ok) throw new InvalidArgumentError({ caller, argument, expected: 'finite embeddings', received: `a tensor ${formatShape(x.shape)} holding NaN or ±Infinity` });
  }

  const ranks = new Int32Array(numQueries);
  const unitCorpus = tidy(() => l2Normalize(corpus)); // [C, E]
  try {
    for (let start = 0; start < numQueries; start += chunkSize) {
      const count = Math.min(chunkSize, numQueries - start);
      const chunkRanks = tidy(() => {
        const unitQueries = l2Normalize(slice(queries, [start, 0], [count, -1])); // [n, E]
        const scores = matMul(unitQueries, unitCorpus, false, true); // [n, E] x [C, E]^T -> [n, C]
        const rightCells = tensor2d(Array.from({ length: count }, (_, i) => [i, relevant[start + i] as number]), [count, 2], 'int32'); // [n, 2]: (row, right column)
        const right = gatherND(scores, rightCells) as Tensor1D; // [n]
        return sum(cast(greaterEqual(scores, expandDims(right, 1)), 'int32'), 1); // [n]: rows scoring ≥ the right one, itself included
      });
      const values = await chunkRanks.data();
      chunkRanks.dispose();
      ranks.set(values, start);
    }
  } finally {
    unitCorpus.dispose();
  }

  let hits1 = 0;
  let hits10 = 0;
  let reciprocal = 0;
  for (let q = 0; q < numQueries; q++) {
    const rank = ranks[q] as number;
    if (rank === 1) hits1++;
    if (rank <= 10) hits10++;
    reciprocal += 1 / rank;
  }
  return { recallAt1: hits1 / numQueries, recallAt10: hits10 / numQueries, mrr: reciprocal / numQueries, queries: numQueries };
}
