export { multipleNegativesRankingLoss, type MultipleNegativesRankingLossOptions } from './losses/multiple-negatives-ranking-loss.js';
export { cosineSimilarityLoss } from './losses/cosine-similarity-loss.js';
export { AdamW, type AdamWOptions, type AdamWState, type AdamWParameterState } from './optim/adamw.js';
export { isNoDecayParameter, NO_DECAY_PATTERNS } from './optim/no-decay.js';
export { linearScheduleWithWarmup, type LinearScheduleOptions } from './optim/linear-schedule-with-warmup.js';
export { clipGradNorm, type ClippedGradients } from './optim/clip-grad-norm.js';
