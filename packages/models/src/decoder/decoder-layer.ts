import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { DecoderAttention, type KvCache, type RotaryCosSin } from '@attnkit/attention';
import { InvalidArgumentError, checkInteger, checkObject, describeValue } from '@attnkit/errors';
import { GatedFeedForward, Module, RMSNorm } from '@attnkit/nn';
import type { DecoderConfig } from './decoder-config.js';

/** What a decoder layer's attention reads besides the hidden states. */
export interface DecoderLayerCallOptions {
  /** The rotary `cos` and `sin` `[B, T, D]` of the model's `rotary_emb`, shared by every layer. */
  readonly positionEmbeddings: RotaryCosSin;
  /** Bool `[B|1, 1, T, S]`, true = may attend (this layer's type: full or sliding). */
  readonly attentionMask: Tensor | undefined;
  /** Appends this layer's keys and values (`layerIndex`) and attends over all of them. */
  readonly cache: KvCache | undefined;
}

/**
 * `layers.N` of a Llama-style decoder (transformers' `LlamaDecoderLayer`, and Mistral's, Qwen2's and
 * Qwen3's, which differ only in their attention's biases and q/k norm): pre-norm self-attention and
 * gated feed-forward, each added to the residual. Children named as in the checkpoints: `self_attn`
 * (`DecoderAttention`), `mlp` (`GatedFeedForward`), `input_layernorm`, `post_attention_layernorm`
 * (`RMSNorm`).
 *
 * `hidden [B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const layer = new DecoderLayer(config, 0);
 * const out = layer.forward(hidden, { positionEmbeddings: rotary.forward(positionIds), attentionMask, cache });
 */
export class DecoderLayer extends Module {
  readonly selfAttn: DecoderAttention;
  readonly mlp: GatedFeedForward;
  readonly inputLayernorm: RMSNorm;
  readonly postAttentionLayernorm: RMSNorm;

  constructor(c: DecoderConfig, layerIndex: number) {
    super();
    checkObject(c, { caller: 'DecoderLayer', argument: 'config', expected: 'a parsed decoder config (parseDecoderConfig)' });
    checkInteger(layerIndex, { caller: 'DecoderLayer', argument: 'layerIndex', min: 0, max: c.numHiddenLayers - 1 });
    const eps = { eps: c.normEps };
    [this.selfAttn, this.mlp, this.inputLayernorm, this.postAttentionLayernorm] = this.guard(() => [
      this.registerModule('self_attn', new DecoderAttention({
        embedDim: c.hiddenSize, numHeads: c.numAttentionHeads, numKeyValueHeads: c.numKeyValueHeads, headDim: c.headDim,
        bias: c.attentionBias, outputBias: c.outputBias, queryKeyNorm: c.queryKeyNorm, rmsNormEps: c.normEps, dropout: c.attentionDropout, layerIndex,
      })),
      this.registerModule('mlp', new GatedFeedForward({ embedDim: c.hiddenSize, feedForwardDim: c.intermediateSize, activation: c.hiddenAct, bias: c.mlpBias })),
      this.registerModule('input_layernorm', new RMSNorm(c.hiddenSize, eps)),
      this.registerModule('post_attention_layernorm', new RMSNorm(c.hiddenSize, eps)),
    ] as const);
  }

  /** `hidden [B, T, E]` → `[B, T, E]`: `h = x + attn(norm(x))`, then `h + mlp(norm(h))`. */
  forward(hidden: Tensor, options: DecoderLayerCallOptions): Tensor {
    this.assertLive('DecoderLayer.forward');
    const { positionEmbeddings } = checkObject(options, { caller: 'DecoderLayer.forward', argument: 'options', expected: 'an object { positionEmbeddings, attentionMask, cache }' });
    if (positionEmbeddings === undefined) throw new InvalidArgumentError({ caller: 'DecoderLayer.forward', argument: 'positionEmbeddings', expected: "the rotary { cos, sin } [B, T, D] of the model's rotary_emb", received: describeValue(positionEmbeddings) });
    return tidy(() => {
      // each norm applied by the block it feeds and each sum made by the block's last product: inside the int8 kernels where they run (the same numbers)
      const { output: attended } = this.selfAttn.forward(hidden, { ...options, inputNorm: this.inputLayernorm, residual: hidden }); // x + attn(norm(x)) [B, T, E]
      return this.mlp.forward(attended, { inputNorm: this.postAttentionLayernorm, residual: attended }); // h + mlp(norm(h)) [B, T, E]
    });
  }
}
