import type { Tensor } from '@tensorflow/tfjs-core';

/**
 * What every scorer is: `(query, key) → scores`, pluggable into attention. Scorers with weights
 * (`AdditiveScorer`, `BilinearScorer`, `SelfAttentionScorer`) are also `@attnkit/nn` modules:
 * `parameters()` for an optimiser, `stateDict()`, `dispose()`.
 *
 * Shapes (batch-first): `query: [B, T, Dq]` or `[B, H, T, Dq]`, `key: [B, S, Dk]` or
 * `[B, H, S, Dk]` → `scores: [B, T, S]` or `[B, H, T, S]`. (The seq-first scorer documents its own.)
 */
export interface Scorer {
  /** Name used in error messages, e.g. `'AdditiveScorer'`. */
  readonly name: string;
  /** Computes the scores; runs inside the caller's `tf.tidy` and leaves nothing else behind. */
  score(query: Tensor, key: Tensor): Tensor;
}
