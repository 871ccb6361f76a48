import { matMul, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject } from '@attnkit/errors';
import { checkQueryKey } from './check-query-key.js';
import { linear } from '@attnkit/nn';
import type { Scorer } from './scorer.js';
import { WeightedModule } from './weighted-module.js';
import { weightVariable } from './weight-variable.js';

/** Configuration of {@link SelfAttentionScorer}; names follow the PyTorch reference module's (`W_q`, `W_k`). */
export interface SelfAttentionScorerConfig {
  /** E, the width of the inputs. */
  readonly embedDim: number;
  /** A, the width of the projections (default E). */
  readonly projectionDim?: number;
  readonly seed?: number;
  /** Initial `W_q.weight [A, E]`, `W_k.weight [A, E]` (PyTorch `nn.Linear` layout, no bias). */
  readonly weights?: Readonly<Record<string, Tensor>>;
}

/**
 * Self-attention scores `(X W_q)(X W_k)ᵀ`; with `query = key = X` it scores a sequence
 * against itself. Unscaled, as in the seed. Trainable.
 *
 * `query [B, (H,) T, E]`, `key [B, (H,) S, E]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scorer = new SelfAttentionScorer({ embedDim: 6, seed: 4 });
 * scorer.score(x, x); // [3, 4, 4] for x [3, 4, 6]
 */
export class SelfAttentionScorer extends WeightedModule implements Scorer {
  readonly name = 'SelfAttentionScorer';
  readonly config: SelfAttentionScorerConfig;

  constructor(config: SelfAttentionScorerConfig) {
    const caller = 'SelfAttentionScorer';
    checkObject(config, { caller, argument: 'config', expected: 'a SelfAttentionScorerConfig object' });
    const embedDim = checkInteger(config.embedDim, { caller, argument: 'embedDim', min: 1 });
    const projectionDim = checkInteger(config.projectionDim ?? embedDim, { caller, argument: 'projectionDim', min: 1 });
    const given = config.weights ?? {};
    const seed = config.seed;
    super(new Map<string, Variable>([
      ['W_q.weight', weightVariable({ caller, name: 'W_q.weight', shape: [projectionDim, embedDim], value: given['W_q.weight'], seed })],
      ['W_k.weight', weightVariable({ caller, name: 'W_k.weight', shape: [projectionDim, embedDim], value: given['W_k.weight'], seed: seed === undefined ? undefined : seed + 1 })],
    ]));
    this.config = config;
  }

  score(query: Tensor, key: Tensor): Tensor {
    const caller = 'SelfAttentionScorer.score';
    const [Wq, Wk] = ['W_q.weight', 'W_k.weight'].map((n) => this.weight(n, caller) as Tensor);
    checkQueryKey(caller, query, key, { queryDim: this.config.embedDim, keyDim: this.config.embedDim });
    return tidy(() => matMul(linear(query, Wq as Tensor), linear(key, Wk as Tensor), false, true)); // [.., T, A] x [.., S, A]^T
  }
}
