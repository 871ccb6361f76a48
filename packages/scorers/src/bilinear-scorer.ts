import { matMul, reshape, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject } from '@attnkit/errors';
import { checkQueryKey } from './check-query-key.js';
import type { Scorer } from './scorer.js';
import { WeightedModule } from './weighted-module.js';
import { weightVariable } from './weight-variable.js';

/** Configuration of {@link BilinearScorer}. */
export interface BilinearScorerConfig {
  readonly queryDim: number;
  readonly keyDim: number;
  readonly seed?: number;
  /** Initial `weight [Dq, Dk]`. */
  readonly weights?: Readonly<Record<string, Tensor>>;
}

/**
 * Bilinear (Luong "general") scores `q W kᵀ`. Trainable.
 *
 * `query [B, (H,) T, Dq]`, `key [B, (H,) S, Dk]`, `weight [Dq, Dk]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scorer = new BilinearScorer({ queryDim: 8, keyDim: 5, seed: 3 });
 * scorer.score(query, key); // [2, 4, 6] for query [2, 4, 8], key [2, 6, 5]
 */
export class BilinearScorer extends WeightedModule implements Scorer {
  readonly name = 'BilinearScorer';
  readonly config: BilinearScorerConfig;

  constructor(config: BilinearScorerConfig) {
    const caller = 'BilinearScorer';
    checkObject(config, { caller, argument: 'config', expected: 'a BilinearScorerConfig object' });
    const queryDim = checkInteger(config.queryDim, { caller, argument: 'queryDim', min: 1 });
    const keyDim = checkInteger(config.keyDim, { caller, argument: 'keyDim', min: 1 });
    super(new Map<string, Variable>([['weight', weightVariable({ caller, name: 'weight', shape: [queryDim, keyDim], value: config.weights?.['weight'], seed: config.seed })]]));
    this.config = config;
  }

  score(query: Tensor, key: Tensor): Tensor {
    const caller = 'BilinearScorer.score';
    const weight = this.weight('weight', caller) as Tensor;
    const { queryDim, keyDim } = checkQueryKey(caller, query, key, { queryDim: this.config.queryDim, keyDim: this.config.keyDim });
    return tidy(() => {
      const projected = reshape(matMul(reshape(query, [-1, queryDim]), weight), [...query.shape.slice(0, -1), keyDim]); // [.., T, Dq] -> [.., T, Dk]
      return matMul(projected, key, false, true); // [.., T, Dk] x [.., S, Dk]^T -> [.., T, S]
    });
  }
}
