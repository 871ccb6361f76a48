export type { Scorer } from './scorer.js';
export { dotProductScorer } from './dot-product-scorer.js';
export { scaledDotProductScorer } from './scaled-dot-product-scorer.js';
export { AdditiveScorer, type AdditiveScorerConfig } from './additive-scorer.js';
export { BilinearScorer, type BilinearScorerConfig } from './bilinear-scorer.js';
export { SelfAttentionScorer, type SelfAttentionScorerConfig } from './self-attention-scorer.js';
export { seqFirstDotProductScorer } from './seq-first-dot-product-scorer.js';
export { attentionPooling, type PoolingResult } from './attention-pooling.js';
export { checkQueryKey, type QueryKeyShapes } from './check-query-key.js';
