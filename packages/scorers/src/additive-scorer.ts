import { add, expandDims, reshape, tanh, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { Linear, Module, checkLayerConfig, type StateDictSource } from '@attnkit/nn';
import { checkQueryKey } from './check-query-key.js';
import type { Scorer } from './scorer.js';

/** Configuration of {@link AdditiveScorer}. */
export interface AdditiveScorerConfig {
  readonly queryDim: number;
  readonly keyDim: number;
  /** A, the width of the tanh layer. */
  readonly hiddenDim: number;
  /** Add a learned bias `b` inside the tanh (the parameter `W_k.bias`). Default false. */
  readonly bias?: boolean;
  /** Seed of the initialisation (PyTorch's `nn.Linear`) when no checkpoint is given. */
  readonly seed?: number;
}

/**
 * Additive (Bahdanau) attention scores: `wᵀ tanh(W_q q + W_k k [+ b])` for every query/key pair.
 * Trainable. Memory grows with `T · S · A`. Its module tree is the PyTorch reference module's:
 * `W_q.weight [A, Dq]`, `W_k.weight [A, Dk]`, `W_k.bias [A]` (with `bias`), `w.weight [1, A]`. A
 * `checkpoint` by those keys is loaded strictly (`Module.buildFrom`); without one, the weights are
 * initialised from `seed`.
 *
 * `query [B, (H,) T, Dq]`, `key [B, (H,) S, Dk]` → `[B, (H,) T, S]`.
 *
 * @example
 * const scorer = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, bias: true, seed: 1 });
 * const scores = scorer.score(query, key); // [2, 4, 6] for query [2, 4, 8], key [2, 6, 5]
 * const trained = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7 }, torchStateDict); // every key, right shapes
 */
export class AdditiveScorer extends Module implements Scorer {
  readonly name = 'AdditiveScorer';
  readonly config: AdditiveScorerConfig;
  /** `W_q`: `[.., T, Dq] → [.., T, A]`. */
  readonly queryProjection: Linear;
  /** `W_k` (and `b`): `[.., S, Dk] → [.., S, A]`. */
  readonly keyProjection: Linear;
  /** `w`: `[.., A] → [.., 1]`. */
  readonly scoreProjection: Linear;

  constructor(config: AdditiveScorerConfig, checkpoint?: StateDictSource) {
    super();
    const { queryDim, keyDim, hiddenDim, bias } = checkLayerConfig(config, 'AdditiveScorer', { widths: ['queryDim', 'keyDim', 'hiddenDim'], flags: { bias: false }, others: ['seed'] });
    this.config = config;
    const seeded = (offset: number) => (config.seed === undefined ? {} : { seed: config.seed + offset }); // a Linear draws from seed and seed + 1
    [this.queryProjection, this.keyProjection, this.scoreProjection] = this.buildFrom(checkpoint, () => [
      this.registerModule('W_q', new Linear(queryDim, hiddenDim, { bias: false, ...seeded(0) })),
      this.registerModule('W_k', new Linear(keyDim, hiddenDim, { bias, ...seeded(2) })),
      this.registerModule('w', new Linear(hiddenDim, 1, { bias: false, ...seeded(4) })),
    ] as const);
  }

  score(query: Tensor, key: Tensor): Tensor {
    const caller = 'AdditiveScorer.score';
    this.assertLive(caller);
    checkQueryKey(caller, query, key, { queryDim: this.config.queryDim, keyDim: this.config.keyDim });
    return tidy(() => {
      const q = expandDims(this.queryProjection.forward(query), -2); // [.., T, A] -> [.., T, 1, A]
      const k = expandDims(this.keyProjection.forward(key), -3); // [.., S, A] -> [.., 1, S, A]
      const hidden = tanh(add(q, k)); // [.., T, S, A]
      return reshape(this.scoreProjection.forward(hidden), hidden.shape.slice(0, -1)); // [.., T, S, 1] -> [.., T, S]
    });
  }
}
