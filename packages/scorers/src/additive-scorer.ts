import { add, expandDims, reshape, tanh, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject } from '@attnkit/errors';
import { checkQueryKey } from './check-query-key.js';
import { linear } from '@attnkit/nn';
import type { Scorer } from './scorer.js';
import { WeightedModule } from './weighted-module.js';
import { weightVariable } from './weight-variable.js';

/** Configuration of {@link AdditiveScorer}; weight names follow the PyTorch reference module's (`W_q`, `W_k`, `v`). */
export interface AdditiveScorerConfig {
  readonly queryDim: number;
  readonly keyDim: number;
  /** A, the width of the tanh layer. */
  readonly hiddenDim: number;
  /** Add a learned bias `b` inside the tanh (stored as `W_k.bias`). Default false. */
  readonly bias?: boolean;
  /** Seed of the Glorot initialisation of weights not given. */
  readonly seed?: number;
  /** Initial values in PyTorch layout: `W_q.weight [A, Dq]`, `W_k.weight [A, Dk]`, `W_k.bias [A]`, `w.weight [1, A]`. */
  readonly weights?: Readonly<Record<string, Tensor>>;
}

/**
 * Additive (Bahdanau) attention scores: `wᵀ tanh(W_q q + W_k k [+ b])` for every query/key pair.
 * Trainable (`tf.Variable` weights). Memory grows with `T · S · A`.
 *
 * `query [B, (H,) T, Dq]`, `key [B, (H,) S, Dk]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scorer = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, bias: true, seed: 1 });
 * const scores = scorer.score(query, key); // [2, 4, 6] for query [2, 4, 8], key [2, 6, 5]
 */
export class AdditiveScorer extends WeightedModule implements Scorer {
  readonly name = 'AdditiveScorer';
  readonly config: AdditiveScorerConfig;

  constructor(config: AdditiveScorerConfig) {
    const caller = 'AdditiveScorer';
    checkObject(config, { caller, argument: 'config', expected: 'a AdditiveScorerConfig object' });
    const queryDim = checkInteger(config.queryDim, { caller, argument: 'queryDim', min: 1 });
    const keyDim = checkInteger(config.keyDim, { caller, argument: 'keyDim', min: 1 });
    const hiddenDim = checkInteger(config.hiddenDim, { caller, argument: 'hiddenDim', min: 1 });
    const given = config.weights ?? {};
    const seed = config.seed;
    const weights = new Map<string, Variable>([
      ['W_q.weight', weightVariable({ caller, name: 'W_q.weight', shape: [hiddenDim, queryDim], value: given['W_q.weight'], seed })],
      ['W_k.weight', weightVariable({ caller, name: 'W_k.weight', shape: [hiddenDim, keyDim], value: given['W_k.weight'], seed: seed === undefined ? undefined : seed + 1 })],
      ['w.weight', weightVariable({ caller, name: 'w.weight', shape: [1, hiddenDim], value: given['w.weight'], seed: seed === undefined ? undefined : seed + 2 })],
    ]);
    if (config.bias === true) weights.set('W_k.bias', weightVariable({ caller, name: 'W_k.bias', shape: [hiddenDim], value: given['W_k.bias'], zeros: true }));
    super(weights);
    this.config = config;
  }

  score(query: Tensor, key: Tensor): Tensor {
    const caller = 'AdditiveScorer.score';
    const [Wq, Wk, w, b] = ['W_q.weight', 'W_k.weight', 'w.weight', 'W_k.bias'].map((n) => this.weight(n, caller));
    checkQueryKey(caller, query, key, { queryDim: this.config.queryDim, keyDim: this.config.keyDim });
    return tidy(() => {
      const q = expandDims(linear(query, Wq as Tensor), -2); // [.., T, A] -> [.., T, 1, A]
      const k = expandDims(linear(key, Wk as Tensor, b), -3); // [.., S, A] -> [.., 1, S, A]
      const hidden = tanh(add(q, k)); // [.., T, S, A]
      return reshape(linear(hidden, w as Tensor), hidden.shape.slice(0, -1)); // [.., T, S, 1] -> [.., T, S]
    });
  }
}
