import type { Tensor, Variable } from '@tensorflow/tfjs-core';
import { checkOptionKeys, InvalidArgumentError, summarizeList } from '@attnkit/errors';
import { WeightedModule, weightVariable, type Scorer } from '@attnkit/scorers';
import { attentionWeightShapes } from './attention-weight-shapes.js';
import { ATTENTION_CALL_OPTION_KEYS, multiHeadAttentionForward, type AttentionCallOptions, type MultiHeadAttentionResult } from './multi-head-attention-forward.js';
import type { MultiHeadAttentionConfig, ResolvedAttentionConfig } from './multi-head-attention-config.js';
import { resolveAttentionConfig } from './resolve-attention-config.js';
import { torchStyleCall, type TorchCallOptions } from './torch-style-call.js';
import { fromTorchStateDict, type TorchStateDict, type FromTorchOptions } from './from-torch-state-dict.js';

/**
 * Multi-head attention equal to `torch.nn.MultiheadAttention` (Keras-style: the constructor takes
 * the config and builds the weights, `call` does the math). Self or cross attention (T ≠ S, key
 * and value of other widths), batch-first or sequence-first layout, any `Scorer`, dropout,
 * boolean masks (`true` = may attend), an additive float bias. A `Module`: every weight is a
 * `tf.Variable` named as in PyTorch (`in_proj_weight`, `out_proj.weight`, ...), so `stateDict()` and
 * `loadStateDict()` speak PyTorch's keys.
 *
 * `query [B, T, E]`, `key [B, S, keyDim]`, `value [B, S, valueDim]` → `output [B, T, E]`.
 *
 * @example
 * const mha = new MultiHeadAttention({ embedDim: 64, numHeads: 8, seed: 1 });
 * const { output, attentionWeights } = mha.call(x, x, x, { attentionMask: paddingMask(lengths, T), returnWeights: 'averaged' });
 */
export class MultiHeadAttention extends WeightedModule {
  readonly name = 'MultiHeadAttention';
  readonly config: ResolvedAttentionConfig;
  readonly scorer: Scorer | undefined;

  constructor(config: MultiHeadAttentionConfig) {
    const caller = 'MultiHeadAttention';
    const resolved = resolveAttentionConfig(config, caller);
    const shapes = attentionWeightShapes(resolved);
    const given = config.weights;
    if (given !== undefined) {
      const missing = Object.keys(shapes).filter((n) => given[n] === undefined);
      const unexpected = Object.keys(given).filter((n) => shapes[n] === undefined);
      if (missing.length > 0 || unexpected.length > 0) {
        throw new InvalidArgumentError({
          caller,
          argument: 'weights',
          expected: `exactly ${Object.keys(shapes).join(', ')} (for this config)`,
          received: [missing.length > 0 ? `missing ${summarizeList(missing)}` : '', unexpected.length > 0 ? `unexpected ${summarizeList(unexpected)}` : ''].filter(Boolean).join('; '),
        });
      }
    }
    let seed = config.seed;
    const weights = new Map<string, Variable>();
    try {
      for (const [name, shape] of Object.entries(shapes)) {
        weights.set(name, weightVariable({ caller, name, shape, value: given?.[name], seed, zeros: name.endsWith('bias') }));
        if (seed !== undefined) seed += 1;
      }
    } catch (error) {
      weights.forEach((w) => w.dispose()); // a weight that does not fit leaks none made before it
      throw error;
    }
    super(weights);
    this.config = resolved;
    this.scorer = config.scorer;
  }

  /**
   * Attention of `query` over `key`/`value` (default: self-attention, `key = value = query`).
   * Dropout applies in training mode (`train()`), or when `options.training` says so.
   */
  call(query: Tensor, key: Tensor = query, value: Tensor = key, options: AttentionCallOptions = {}): MultiHeadAttentionResult {
    const caller = 'MultiHeadAttention.call';
    this.assertLive(caller);
    checkOptionKeys(options, ATTENTION_CALL_OPTION_KEYS, caller); // before the spread below: { ...null } would read as no options
    const training = options.training ?? this.training;
    return multiHeadAttentionForward(caller, this.namedWeights, this.config, this.scorer, { query, key, value }, { ...options, training });
  }

  /** The same as {@link MultiHeadAttention.call}, under the name every module uses. */
  forward(query: Tensor, key: Tensor = query, value: Tensor = key, options: AttentionCallOptions = {}): MultiHeadAttentionResult {
    return this.call(query, key, value, options);
  }

  /**
   * The `nn.MultiheadAttention(batch_first=True)` call convention: `keyPaddingMask` (`true` =
   * padding), `attnMask` (bool `true` = blocked, or float additive), `needWeights`,
   * `averageAttnWeights`. Rows PyTorch returns as NaN (no key allowed) come back as zeros.
   */
  callTorch(query: Tensor, key: Tensor, value: Tensor, options: TorchCallOptions = {}): MultiHeadAttentionResult {
    return torchStyleCall(this, query, key, value, options);
  }

  /**
   * Builds a `MultiHeadAttention` from a PyTorch `nn.MultiheadAttention` state dict — a record of
   * tensors, or the bytes of a `.safetensors` file — inferring widths and projection layout from
   * the weights (`in_proj_weight` or `q/k/v_proj_weight`, `in_proj_bias`, `out_proj.*`).
   */
  static fromTorchStateDict(stateDict: TorchStateDict, options: FromTorchOptions): MultiHeadAttention {
    const { config, temporaries } = fromTorchStateDict(stateDict, options);
    try {
      return new MultiHeadAttention(config);
    } finally {
      temporaries.forEach((t) => t.dispose()); // the weights were copied into variables
    }
  }
}
