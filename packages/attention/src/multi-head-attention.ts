import type { Tensor } from '@tensorflow/tfjs-core';
import { checkOptionKeys } from '@attnkit/errors';
import { Module, initialValues, type StateDictSource } from '@attnkit/nn';
import { checkScorer, type Scorer } from '@attnkit/scorers';
import { attentionWeightShapes } from './attention-weight-shapes.js';
import { ATTENTION_CALL_OPTION_KEYS, multiHeadAttentionForward, type AttentionCallOptions, type MultiHeadAttentionResult } from './multi-head-attention-forward.js';
import type { MultiHeadAttentionConfig, ResolvedAttentionConfig } from './multi-head-attention-config.js';
import { resolveAttentionConfig } from './resolve-attention-config.js';
import { torchStyleCall, type TorchCallOptions } from './torch-style-call.js';
import { fromTorchStateDict, type TorchStateDict, type FromTorchOptions } from './from-torch-state-dict.js';

/** The keys of {@link MultiHeadAttentionConfig}: any other key is refused, never ignored. */
const CONFIG_KEYS = ['embedDim', 'numHeads', 'keyDim', 'valueDim', 'bias', 'dropout', 'scorer', 'projections', 'layout', 'seed'];

/**
 * Multi-head attention equal to `torch.nn.MultiheadAttention` (Keras-style: the constructor takes
 * the config and builds the weights, `forward` does the math). Self or cross attention (T ≠ S, key
 * and value of other widths), batch-first or sequence-first layout, any `Scorer`, dropout,
 * boolean masks (`true` = may attend), an additive float bias. A `Module` whose parameters have
 * PyTorch's names (`in_proj_weight`, `out_proj.weight`, ...; `attentionWeightShapes`), so
 * `stateDict()` and `loadStateDict()` speak PyTorch's keys.
 *
 * `query [B, T, E]`, `key [B, S, keyDim]`, `value [B, S, valueDim]` → `output [B, T, E]`.
 *
 * @example
 * const mha = new MultiHeadAttention({ embedDim: 64, numHeads: 8, seed: 1 });
 * const { output, attentionWeights } = mha.forward(x, x, x, { attentionMask: paddingMask(lengths, T), returnWeights: 'averaged' });
 */
export class MultiHeadAttention extends Module {
  readonly config: ResolvedAttentionConfig;
  readonly scorer: Scorer | undefined;

  /**
   * `checkpoint`: values by PyTorch's keys, loaded strictly (`Module.buildFrom`: one `StateDictError`
   * for every unknown, missing, mis-shaped or turned-off key, nothing left on failure); without one,
   * Glorot-uniform weights from `seed` and zero biases. `fromTorchStateDict` reads the config from the weights.
   */
  constructor(config: MultiHeadAttentionConfig, checkpoint?: StateDictSource) {
    super();
    const caller = 'MultiHeadAttention';
    this.config = resolveAttentionConfig(config, caller);
    checkOptionKeys(config, CONFIG_KEYS, caller, 'config');
    this.scorer = config.scorer === undefined ? undefined : checkScorer(config.scorer, caller);
    let seed = config.seed;
    this.buildFrom(checkpoint, () => {
      for (const [name, shape] of Object.entries(attentionWeightShapes(this.config))) {
        this.registerParameter(name, initialValues(shape, name.endsWith('bias') ? { constant: 0 } : { glorotUniform: 1 }, seed, caller));
        if (seed !== undefined) seed += 1;
      }
    });
  }

  /**
   * Attention of `query` over `key`/`value` (default: self-attention, `key = value = query`).
   * Dropout applies in training mode (`train()`), or when `options.training` says so.
   */
  forward(query: Tensor, key: Tensor = query, value: Tensor = key, options: AttentionCallOptions = {}): MultiHeadAttentionResult {
    const caller = 'MultiHeadAttention.forward';
    this.assertLive(caller);
    checkOptionKeys(options, ATTENTION_CALL_OPTION_KEYS, caller); // before the spread below: { ...null } would read as no options
    const training = options.training === undefined ? this.training : options.training;
    return multiHeadAttentionForward(caller, this.stateDict(), this.config, this.scorer, { query, key, value }, { ...options, training });
  }

  /**
   * The `nn.MultiheadAttention(batch_first=True)` call convention: `keyPaddingMask` (`true` =
   * padding), `attnMask` (bool `true` = blocked, or float additive), `needWeights`,
   * `averageAttnWeights`. Rows PyTorch returns as NaN (no key allowed) come back as zeros.
   */
  forwardTorch(query: Tensor, key: Tensor, value: Tensor, options: TorchCallOptions = {}): MultiHeadAttentionResult {
    return torchStyleCall(this, query, key, value, options);
  }

  /**
   * Builds a `MultiHeadAttention` from a PyTorch `nn.MultiheadAttention` state dict — a record of
   * tensors, or the bytes of a `.safetensors` file — inferring widths and projection layout from
   * the weights (`in_proj_weight` or `q/k/v_proj_weight`, `in_proj_bias`, `out_proj.*`).
   */
  static fromTorchStateDict(stateDict: TorchStateDict, options: FromTorchOptions): MultiHeadAttention {
    const { config, checkpoint, temporaries } = fromTorchStateDict(stateDict, options);
    try {
      return new MultiHeadAttention(config, checkpoint);
    } finally {
      temporaries.forEach((t) => t.dispose()); // the weights were copied into variables
    }
  }
}
