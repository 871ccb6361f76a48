import { tidy, zeros } from '@tensorflow/tfjs-core';
import { AdditiveScorer, BilinearScorer, attentionPooling, dotProductScorer, seqFirstDotProductScorer } from '@attnkit/scorers';
import { attempt, rejects, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';

/** Scorers: mismatched head dims, ranks, widths and weights; use after dispose. */
export const scorersCases: CatalogueCase[] = [
  rejects('scorers', 'key head dim ≠ query head dim', E, "dotProductScorer: 'key' must be the head dim of 'query' (D = 5) in its last axis; received [2, 3, 6, 4].", () => attempt(() => dotProductScorer.score(zeros([2, 3, 4, 5]), zeros([2, 3, 6, 4])))),
  rejects('scorers', 'key with other heads', E, /^dotProductScorer: 'key' must be the leading dims of 'query' \[2, 3\]/, () => attempt(() => dotProductScorer.score(zeros([2, 3, 4, 5]), zeros([2, 2, 6, 5])))),
  rejects('scorers', 'rank-2 query', E, /^dotProductScorer: 'query' must be a float32 tensor of rank 3 or 4/, () => attempt(() => dotProductScorer.score(zeros([4, 5]), zeros([6, 5])))),
  rejects('scorers', 'additive scorer fed the wrong key width', E, "AdditiveScorer.score: 'key' must be last dim 5 (the scorer's keyDim); received [2, 6, 8].", () => {
    const s = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, seed: 1 });
    try { return tidy(() => s.score(zeros([2, 4, 8]), zeros([2, 6, 8]))); } finally { s.dispose(); }
  }),
  rejects('scorers', 'bilinear weight in the wrong layout', E, "BilinearScorer: 'weights['weight']' must be shape [4, 3] (PyTorch layout, from the layer's configuration); received [3, 4].", () => attempt(() => new BilinearScorer({ queryDim: 4, keyDim: 3, weights: { weight: zeros([3, 4]) } }))),
  rejects('scorers', 'scorer used after dispose()', 'UseAfterDisposeError', 'AdditiveScorer.score: called after dispose() freed its weights. Create a new instance instead.', () => {
    const s = new AdditiveScorer({ queryDim: 2, keyDim: 2, hiddenDim: 2, seed: 1 });
    s.dispose();
    return tidy(() => s.score(zeros([1, 1, 2]), zeros([1, 1, 2])));
  }),
  rejects('scorers', 'double dispose()', 'UseAfterDisposeError', 'BilinearScorer.dispose: called after dispose() freed its weights. Create a new instance instead.', () => {
    const s = new BilinearScorer({ queryDim: 2, keyDim: 2, seed: 1 });
    s.dispose();
    s.dispose();
  }),
  rejects('scorers', 'seq-first key with other heads', E, "seqFirstDotProductScorer: 'key' must be [S, B, H, D] = [S, 2, 3, 5] like 'query'; received [6, 2, 4, 5].", () => attempt(() => seqFirstDotProductScorer.score(zeros([4, 2, 3, 5]), zeros([6, 2, 4, 5])))),
  rejects('scorers', 'pooling query for another batch size', E, "attentionPooling: 'query' must be [Dq], [1, Dq] or [B, Dq] with B = 2; received [3, 4].", () => attempt(() => attentionPooling(dotProductScorer, zeros([2, 3, 4]), undefined, zeros([3, 4])))),
];
