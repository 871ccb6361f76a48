import { matMul, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger } from '@attnkit/errors';
import { Linear, Module, checkLayerConfig, type StateDictSource } from '@attnkit/nn';
import { checkQueryKey } from './check-query-key.js';
import type { Scorer } from './scorer.js';

/** Configuration of {@link SelfAttentionScorer}. */
export interface SelfAttentionScorerConfig {
  /** E, the width of the inputs. */
  readonly embedDim: number;
  /** A, the width of the projections (default E). */
  readonly projectionDim?: number;
  /** Seed of the initialisation (PyTorch's `nn.Linear`) when no checkpoint is given. */
  readonly seed?: number;
}

/**
 * Self-attention scores `(X W_q)(X W_k)ᵀ`; with `query = key = X` it scores a sequence
 * against itself. Unscaled, as in the seed. Trainable. Its module tree is the PyTorch reference
 * module's: `W_q.weight [A, E]`, `W_k.weight [A, E]` (`nn.Linear` without bias). A `checkpoint` by
 * those keys is loaded strictly (`Module.buildFrom`); without one, the weights are initialised from `seed`.
 *
 * `query [B, (H,) T, E]`, `key [B, (H,) S, E]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scorer = new SelfAttentionScorer({ embedDim: 6, seed: 4 });
 * scorer.score(x, x); // [3, 4, 4] for x [3, 4, 6]
 */
export class SelfAttentionScorer extends Module implements Scorer {
  readonly name = 'SelfAttentionScorer';
  readonly config: SelfAttentionScorerConfig;
  /** `W_q`: `[.., T, E] → [.., T, A]`. */
  readonly queryProjection: Linear;
  /** `W_k`: `[.., S, E] → [.., S, A]`. */
  readonly keyProjection: Linear;

  constructor(config: SelfAttentionScorerConfig, checkpoint?: StateDictSource) {
    super();
    const { embedDim } = checkLayerConfig(config, 'SelfAttentionScorer', { widths: ['embedDim'], others: ['projectionDim', 'seed'] });
    const projectionDim = checkInteger(config.projectionDim ?? embedDim, { caller: 'SelfAttentionScorer', argument: 'projectionDim', min: 1 });
    const { seed } = config;
    this.config = config;
    [this.queryProjection, this.keyProjection] = this.buildFrom(checkpoint, () => [
      this.registerModule('W_q', new Linear(embedDim, projectionDim, { bias: false, ...(seed === undefined ? {} : { seed }) })),
      this.registerModule('W_k', new Linear(embedDim, projectionDim, { bias: false, ...(seed === undefined ? {} : { seed: seed + 1 }) })),
    ] as const);
  }

  score(query: Tensor, key: Tensor): Tensor {
    const caller = 'SelfAttentionScorer.score';
    this.assertLive(caller);
    checkQueryKey(caller, query, key, { queryDim: this.config.embedDim, keyDim: this.config.embedDim });
    return tidy(() => matMul(this.queryProjection.forward(query), this.keyProjection.forward(key), false, true)); // [.., T, A] x [.., S, A]^T -> [.., T, S]
  }
}
