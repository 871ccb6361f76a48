import { add, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkBoolean, checkInteger, checkObject, checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { Dropout, LayerNorm, Linear, Module, activationByName, type ActivationFunction } from '@attnkit/nn';
import { callWithTorchMasks, type TorchEncoderCallOptions } from './call-with-torch-masks.js';
import { MultiHeadAttention } from './multi-head-attention.js';
import type { TransformerEncoderLayerConfig } from './transformer-encoder-layer-config.js';

/** Options of {@link TransformerEncoderLayer.forward}. */
export interface EncoderLayerCallOptions {
  /** Bool, `true` = may attend, broadcastable to `[B, H, T, T]` (e.g. `paddingMask`, `causalMask`). */
  readonly attentionMask?: Tensor | undefined;
  /** Float32 added to the scores: `[T, T]` or rank 4 broadcastable to `[B, H, T, T]`. */
  readonly attentionBias?: Tensor | undefined;
  /** Also return this layer's attention weights `[B, H, T, T]`. */
  readonly outputAttentions?: boolean;
}

/** What {@link TransformerEncoderLayer.forward} returns; the caller disposes it. */
export interface EncoderLayerResult {
  /** `[B, T, E]`. */
  readonly output: Tensor;
  /** `[B, H, T, T]`, when asked for. */
  readonly attentionWeights?: Tensor;
}

/**
 * One Transformer encoder layer equal to `torch.nn.TransformerEncoderLayer` — self-attention and a
 * feed-forward block, each with a residual connection, post-LN (BERT) or pre-LN (`normFirst`) —
 * with PyTorch's parameter names (`self_attn.in_proj_weight`, `linear1.weight`, `norm1.weight`, ...),
 * so a PyTorch state dict loads as is.
 *
 * `x [B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const layer = new TransformerEncoderLayer({ embedDim: 64, numHeads: 4, feedForwardDim: 256, normFirst: true });
 * const { output } = layer.forward(x, { attentionMask: paddingMask(lengths, T) });
 */
export class TransformerEncoderLayer extends Module {
  readonly embedDim: number;
  readonly normFirst: boolean;
  readonly activation: ActivationFunction;
  readonly selfAttn: MultiHeadAttention;
  readonly linear1: Linear;
  readonly dropout: Dropout;
  readonly linear2: Linear;
  readonly norm1: LayerNorm;
  readonly norm2: LayerNorm;
  readonly dropout1: Dropout;
  readonly dropout2: Dropout;

  constructor(config: TransformerEncoderLayerConfig) {
    super();
    const caller = 'TransformerEncoderLayer';
    checkObject(config, { caller, argument: 'config', expected: 'a TransformerEncoderLayerConfig object ({ embedDim, numHeads, ... })' });
    this.embedDim = checkInteger(config.embedDim, { caller, argument: 'embedDim', min: 1 });
    // an absent option takes its default; null is no value of any option (refused by the checks below)
    const or = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
    const feedForwardDim = checkInteger(or(config.feedForwardDim, 2048), { caller, argument: 'feedForwardDim', min: 1 });
    const rate = or(config.dropout, 0.1);
    const eps = or(config.layerNormEps, 1e-5);
    this.normFirst = or(config.normFirst, false);
    if (typeof this.normFirst !== 'boolean') throw new InvalidArgumentError({ caller, argument: 'normFirst', expected: 'a boolean', received: describeValue(this.normFirst) });
    this.activation = activationByName(or(config.activation, 'relu'), caller);
    const seedValue = config.seed === undefined ? undefined : checkInteger(config.seed, { caller, argument: 'seed' });
    const seed = (offset: number) => (seedValue === undefined ? {} : { seed: seedValue + offset });
    const e = this.embedDim;
    [this.selfAttn, this.linear1, this.dropout, this.linear2, this.norm1, this.norm2, this.dropout1, this.dropout2] = this.guard(() => [
      this.registerModule('self_attn', new MultiHeadAttention({ embedDim: e, numHeads: config.numHeads, dropout: rate, ...seed(0) })),
      this.registerModule('linear1', new Linear(e, feedForwardDim, seed(10))),
      this.registerModule('dropout', new Dropout(rate)),
      this.registerModule('linear2', new Linear(feedForwardDim, e, seed(20))),
      this.registerModule('norm1', new LayerNorm(e, { eps })),
      this.registerModule('norm2', new LayerNorm(e, { eps })),
      this.registerModule('dropout1', new Dropout(rate)),
      this.registerModule('dropout2', new Dropout(rate)),
    ] as const);
  }

  /** `x [B, T, E]` → `{ output [B, T, E], attentionWeights? [B, H, T, T] }`. */
  forward(x: Tensor, options: EncoderLayerCallOptions = {}): EncoderLayerResult {
    const caller = 'TransformerEncoderLayer.forward';
    this.assertLive(caller);
    checkOptionKeys(options, ['attentionMask', 'attentionBias', 'outputAttentions'], caller);
    const outputAttentions = checkBoolean(options.outputAttentions, { caller, argument: 'outputAttentions', fallback: false });
    checkTensor(x, { caller, argument: 'x', dtype: 'float32', rank: 3, shape: '[B, T, E]' });
    if (x.shape[2] !== this.embedDim) throw new InvalidArgumentError({ caller, argument: 'x', expected: `[B, T, E] with E = embedDim = ${this.embedDim}`, received: formatShape(x.shape) });
    return tidy(() => {
      const attend = (h: Tensor) => {
        const result = this.selfAttn.forward(h, h, h, { attentionMask: options.attentionMask, attentionBias: options.attentionBias, returnWeights: outputAttentions ? 'per-head' : 'none' });
        return { attended: this.dropout1.forward(result.output), weights: result.attentionWeights }; // [B, T, E], [B, H, T, T]
      };
      const feedForward = (h: Tensor) => this.dropout2.forward(this.linear2.forward(this.dropout.forward(this.activation(this.linear1.forward(h))))); // [B, T, E] -> [B, T, F] -> [B, T, E]
      let output: Tensor;
      let weights: Tensor | undefined;
      if (this.normFirst) {
        const { attended, weights: w } = attend(this.norm1.forward(x));
        const h = add(x, attended); // x + SA(LN(x))
        output = add(h, feedForward(this.norm2.forward(h))); // h + FF(LN(h))
        weights = w;
      } else {
        const { attended, weights: w } = attend(x);
        const h = this.norm1.forward(add(x, attended)); // LN(x + SA(x))
        output = this.norm2.forward(add(h, feedForward(h))); // LN(h + FF(h))
        weights = w;
      }
      return weights === undefined ? { output } : { output, attentionWeights: weights };
    });
  }

  /**
   * The `torch.nn.TransformerEncoderLayer.forward(src, src_mask, src_key_padding_mask)` call:
   * PyTorch's mask conventions (bool `true` = blocked; float masks added to the scores) and
   * layout (`batchFirst: false` takes `[T, B, E]`). Returns the output in the layout of `src`.
   */
  forwardTorch(src: Tensor, options: TorchEncoderCallOptions = {}): Tensor {
    const caller = 'TransformerEncoderLayer.forwardTorch';
    this.assertLive(caller);
    return callWithTorchMasks(caller, src, options, this.selfAttn.config.numHeads, (x, mask, bias) => this.forward(x, { attentionMask: mask, attentionBias: bias }).output);
  }
}
