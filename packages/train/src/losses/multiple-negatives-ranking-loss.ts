import { concat, logSumExp, matMul, mean, mul, slice, sub, sum, tidy, type Scalar, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkOptionKeys, describeValue } from '@attnkit/errors';
import { l2Normalize } from '@attnkit/sentence';
import { checkEmbeddings } from './check-embeddings.js';

/** Options of {@link multipleNegativesRankingLoss}. */
export interface MultipleNegativesRankingLossOptions {
  /** The factor on the cosine similarities (`1 / temperature`); finite and > 0. Default 20. */
  readonly scale?: number;
  /** Hard negatives, each `[B, E]`: row `i` is a negative for anchor `i` (and an in-batch negative for every other anchor). */
  readonly hardNegatives?: readonly Tensor2D[];
}

/**
 * sentence-transformers' `MultipleNegativesRankingLoss` (InfoNCE with in-batch negatives) in its
 * default configuration (v6.0.1: `directions=("query_to_doc",)`, `partition_mode="joint"`, no
 * hardness weighting): each anchor's cosine similarity to every candidate, times `scale`, under a
 * cross-entropy whose label is its own positive. The candidates are the positives, then each set of
 * hard negatives, stacked: `[B · (1 + k), E]`. The mean over the batch is returned.
 *
 * The cosine is `cos_sim`'s: rows divided by `max(‖row‖, 1e-12)` (a zero row scores 0).
 *
 * `anchors: [B, E]`, `positives: [B, E]`, `hardNegatives: k × [B, E]` → scalar.
 *
 * Not implemented (other configurations of the Python class): the `doc_to_query`, `query_to_query`
 * and `doc_to_doc` directions, `partition_mode="per_direction"`, `hardness_mode`, a similarity
 * other than cosine, and gathering across devices.
 *
 * Differentiable: use it inside `optimizer.minimize` or `variableGrads`.
 *
 * @example
 * const loss = multipleNegativesRankingLoss(model.forward(queries), model.forward(passages)); // scalar
 */
export function multipleNegativesRankingLoss(anchors: Tensor2D, positives: Tensor2D, options: MultipleNegativesRankingLossOptions = {}): Scalar {
  const caller = 'multipleNegativesRankingLoss';
  const { scale = 20, hardNegatives = [] } = checkOptionKeys(options, ['scale', 'hardNegatives'], caller);
  checkEmbeddings(anchors, caller, 'anchors');
  checkEmbeddings(positives, caller, 'positives', ['anchors', anchors]);
  if (!Array.isArray(hardNegatives)) {
    throw new InvalidArgumentError({ caller, argument: 'hardNegatives', expected: 'an array of float32 tensors [B, E]', received: describeValue(hardNegatives) });
  }
  hardNegatives.forEach((negatives, i) => checkEmbeddings(negatives, caller, `hardNegatives[${i}]`, ['anchors', anchors]));
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
    throw new InvalidArgumentError({ caller, argument: 'scale', expected: 'a finite number > 0 (1 / temperature, e.g. 20)', received: describeValue(scale) });
  }
  const [batch, width] = anchors.shape;
  return tidy(() => {
    const queries = l2Normalize(anchors) as Tensor2D; // [B, E]
    const documents = l2Normalize(hardNegatives.length === 0 ? positives : concat([positives, ...hardNegatives], 0)) as Tensor2D; // [B · (1 + k), E]
    const scores = mul(matMul(queries, documents, false, true), scale); // [B, E] x [E, B · (1 + k)] -> [B, B · (1 + k)]
    const positiveScores = mul(sum(mul(queries, slice(documents, [0, 0], [batch, width])), 1), scale); // the diagonal: [B]
    return mean(sub(logSumExp(scores, 1), positiveScores)); // cross-entropy with labels 0..B-1
  });
}
