import { matMul, reshape, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { Module, checkLayerConfig, initialValues, type StateDictSource } from '@attnkit/nn';
import { checkQueryKey } from './check-query-key.js';
import type { Scorer } from './scorer.js';

/** Configuration of {@link BilinearScorer}. */
export interface BilinearScorerConfig {
  readonly queryDim: number;
  readonly keyDim: number;
  /** Seed of the Glorot-uniform initialisation when no checkpoint is given. */
  readonly seed?: number;
}

/**
 * Bilinear (Luong "general") scores `q W kᵀ`. Trainable; its one parameter is `weight [Dq, Dk]`. A
 * `checkpoint` `{ weight }` is loaded strictly (`Module.buildFrom`); without one, it is initialised from `seed`.
 *
 * `query [B, (H,) T, Dq]`, `key [B, (H,) S, Dk]`, `weight [Dq, Dk]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scorer = new BilinearScorer({ queryDim: 8, keyDim: 5, seed: 3 });
 * scorer.score(query, key); // [2, 4, 6] for query [2, 4, 8], key [2, 6, 5]
 */
export class BilinearScorer extends Module implements Scorer {
  readonly name = 'BilinearScorer';
  readonly config: BilinearScorerConfig;
  readonly weight: Variable;

  constructor(config: BilinearScorerConfig, checkpoint?: StateDictSource) {
    super();
    const { queryDim, keyDim } = checkLayerConfig(config, 'BilinearScorer', { widths: ['queryDim', 'keyDim'], others: ['seed'] });
    this.config = config;
    this.weight = this.buildFrom(checkpoint, () => this.registerParameter('weight', initialValues([queryDim, keyDim], { glorotUniform: 1 }, config.seed, 'BilinearScorer')));
  }

  score(query: Tensor, key: Tensor): Tensor {
    const caller = 'BilinearScorer.score';
    this.assertLive(caller);
    const { queryDim, keyDim } = checkQueryKey(caller, query, key, { queryDim: this.config.queryDim, keyDim: this.config.keyDim });
    return tidy(() => {
      const projected = reshape(matMul(reshape(query, [-1, queryDim]), this.weight), [...query.shape.slice(0, -1), keyDim]); // [.., T, Dq] -> [.., T, Dk]
      return matMul(projected, key, false, true); // [.., T, Dk] x [.., S, Dk]^T -> [.., T, S]
    });
  }
}
