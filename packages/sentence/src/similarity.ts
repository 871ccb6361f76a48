import { abs, matMul, neg, sqrt, sub, sum, tidy, transpose, expandDims, maximum, square, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkTensor, describeValue, formatShape } from '@attnkit/errors';
import { l2Normalize } from './l2-normalize.js';

/** The similarity functions a sentence-transformers folder names in `similarity_fn_name`. */
export const SIMILARITY_FUNCTIONS = ['cosine', 'dot', 'euclidean', 'manhattan'] as const;

/** One of {@link SIMILARITY_FUNCTIONS}. */
export type SimilarityFunction = (typeof SIMILARITY_FUNCTIONS)[number];

/**
 * Every row of `a [N, E]` against every row of `b [M, E]` → `[N, M]`, as sentence-transformers'
 * `similarity`: `'cosine'` (default), `'dot'`, `'euclidean'` (the negative L2 distance) or
 * `'manhattan'` (the negative L1 distance); higher is more similar for all four. A `Tensor2D`
 * (`a` and `b` are checked to be rank 2), so `await similarity(a, b).array()` is a `number[][]`;
 * the caller disposes it.
 *
 * @example
 * const scores = similarity(queries, documents, 'dot'); // [N, M]
 * const [[first]] = await scores.array();               // number[][]: queries × documents
 * scores.dispose();
 */
export function similarity(a: Tensor, b: Tensor, fn: SimilarityFunction = 'cosine'): Tensor2D {
  const caller = 'similarity';
  checkTensor(a, { caller, argument: 'a', dtype: 'float32', rank: 2, shape: '[N, E]' });
  checkTensor(b, { caller, argument: 'b', dtype: 'float32', rank: 2, shape: '[M, E]' });
  if (a.shape[1] !== b.shape[1]) throw new InvalidArgumentError({ caller, argument: 'b', expected: `rows of width E = ${a.shape[1]} like 'a'`, received: formatShape(b.shape) });
  if (!(SIMILARITY_FUNCTIONS as readonly unknown[]).includes(fn)) throw new InvalidArgumentError({ caller, argument: 'fn', expected: SIMILARITY_FUNCTIONS.map((f) => `'${f}'`).join(', '), received: describeValue(fn) });
  return tidy((): Tensor2D => {
    switch (fn) {
      case 'cosine':
        return matMul(l2Normalize(a), transpose(l2Normalize(b))); // [N, E] x [E, M]
      case 'dot':
        return matMul(a, transpose(b));
      case 'euclidean':
        return neg(sqrt(maximum<Tensor2D>(sum(square(sub(expandDims(a, 1), expandDims(b, 0))), -1), 0))); // [N, 1, E] - [1, M, E] -> [N, M]
      default:
        return neg(sum<Tensor2D>(abs(sub(expandDims(a, 1), expandDims(b, 0))), -1)); // [N, M]
    }
  });
}
