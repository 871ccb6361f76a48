import { tidy, zeros } from '@tensorflow/tfjs-core';
import { AdditiveScorer, BilinearScorer, SelfAttentionScorer, attentionPooling, dotProductScorer, seqFirstDotProductScorer } from '@attnkit/scorers';
import { attempt, rejects, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';
const S = 'StateDictError';

/** Scorers: mismatched head dims, ranks, widths and weights, hostile checkpoints; use after dispose. */
export const scorersCases: CatalogueCase[] = [
  rejects('scorers', 'key head dim ≠ query head dim', E, "dotProductScorer: 'key' must be the head dim of 'query' (D = 5) in its last axis; received [2, 3, 6, 4].", () => attempt(() => dotProductScorer.score(zeros([2, 3, 4, 5]), zeros([2, 3, 6, 4])))),
  rejects('scorers', 'key with other heads', E, /^dotProductScorer: 'key' must be the leading dims of 'query' \[2, 3\]/, () => attempt(() => dotProductScorer.score(zeros([2, 3, 4, 5]), zeros([2, 2, 6, 5])))),
  rejects('scorers', 'rank-2 query', E, /^dotProductScorer: 'query' must be a float32 tensor of rank 3 or 4/, () => attempt(() => dotProductScorer.score(zeros([4, 5]), zeros([6, 5])))),
  rejects('scorers', 'additive scorer fed the wrong key width', E, "AdditiveScorer.score: 'key' must be last dim 5 (the scorer's keyDim); received [2, 6, 8].", () => {
    const s = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, seed: 1 });
    try { return tidy(() => s.score(zeros([2, 4, 8]), zeros([2, 6, 8]))); } finally { s.dispose(); }
  }),
  rejects('scorers', 'bilinear weight in the wrong layout', S, 'BilinearScorer: the state dict does not fit the module. 1 mis-shaped: weight (expected [4, 3] float32, received [3, 4] float32). For its config, this BilinearScorer has weight [4, 3].', () => attempt(() => new BilinearScorer({ queryDim: 4, keyDim: 3 }, { weight: zeros([3, 4]) }))),
  rejects('scorers', 'additive checkpoint: a bias with bias: false, a misspelled and a mis-shaped weight', S,
    'AdditiveScorer: the state dict does not fit the module. 1 missing: w.weight. 2 unexpected: W_k.bias, w.weigth. 1 mis-shaped: W_q.weight (expected [3, 2] float32, received [2, 3] float32). For its config, this AdditiveScorer has W_q.weight [3, 2], W_k.weight [3, 2], w.weight [1, 3].',
    () => attempt(() => new AdditiveScorer({ queryDim: 2, keyDim: 2, hiddenDim: 3 }, { 'W_q.weight': zeros([2, 3]), 'W_k.weight': zeros([3, 2]), 'W_k.bias': zeros([3]), 'w.weigth': zeros([1, 3]) }))),
  rejects('scorers', 'self-attention checkpoint with a key nothing uses and a value that is not a tensor', S,
    'SelfAttentionScorer: the state dict does not fit the module. 1 unexpected: W_v.weight. 1 mis-shaped: W_k.weight (expected [2, 2] float32, received array [1,2]). For its config, this SelfAttentionScorer has W_q.weight [2, 2], W_k.weight [2, 2].',
    () => attempt(() => new SelfAttentionScorer({ embedDim: 2 }, { 'W_q.weight': zeros([2, 2]), 'W_k.weight': [1, 2] as never, 'W_v.weight': zeros([2, 2]) }))),
  rejects('scorers', "a scorer config with the old 'weights' option", E, "AdditiveScorer: 'config' must be an object with only the keys queryDim, keyDim, hiddenDim, bias, seed; received the unknown key 'weights'.",
    () => attempt(() => new AdditiveScorer({ queryDim: 2, keyDim: 2, hiddenDim: 3, weights: { 'W_q.weight': zeros([3, 2]) } } as never))),
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
