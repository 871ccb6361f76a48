import { logicalAnd, range, reshape, tile, type Tensor } from '@tensorflow/tfjs-core';
import { RotaryEmbedding } from '@attnkit/attention';
import { slidingWindowMask } from '@attnkit/masks';
import type { LayerNorm, ModuleList } from '@attnkit/nn';
import type { EncoderLayerLike, EncoderParts, LayerCallOptions } from '../encoder/encoder-forward.js';
import type { ModernBertConfig, ModernBertLayerType } from './modernbert-config.js';
import type { ModernBertEmbeddings, ModernBertEncoderLayer } from './modernbert-model.js';

/** What a ModernBERT attention layer takes beside its input: its mask and its rotary tables. */
export interface ModernBertAttentionInputs {
  /** Bool, `[B, 1, 1, T]` (global layers: the padding), `[B, 1, T, T]` or `[1, 1, T, T]` (sliding-window layers); undefined = every key. */
  readonly mask: Tensor | undefined;
  /** `[B, T, D]`: the layer type's rotary tables at positions 0 .. T − 1. */
  readonly cos: Tensor;
  readonly sin: Tensor;
}

/** The modules of a ModernBERT encoder, wherever the model keeps them (`ModernBertModel`, or under `model` in a model with a head). */
export interface ModernBertEncoderModules {
  readonly embeddings: ModernBertEmbeddings;
  readonly layers: ModuleList<ModernBertEncoderLayer>;
  readonly finalNorm: LayerNorm;
}

/** The rotary embeddings of a config, one per layer type (no parameters: transformers keeps `inv_freq` out of the state dict too). */
const rotaries = new WeakMap<ModernBertConfig, Readonly<Record<ModernBertLayerType, RotaryEmbedding>>>();

/**
 * ModernBERT's forward pass in `encoderForward`'s parts: the embeddings; the layers, each given its
 * type's inputs — made once per call, on the first layer of that type: the rotary tables
 * (`RotaryEmbedding` with the type's theta, positions 0 .. T − 1 in every row) and the mask (global:
 * the padding mask; sliding: `slidingWindowMask(T, floor(local_attention / 2))` AND the padding
 * mask); then `final_norm`. The tensors are made inside `encoderForward`'s tidy and end with it.
 *
 * @example
 * return encoderForward(caller, config, modernBertEncoderParts(config, { embeddings, layers, finalNorm }), inputs);
 */
export function modernBertEncoderParts(config: ModernBertConfig, modules: ModernBertEncoderModules): EncoderParts {
  let rotary = rotaries.get(config);
  if (rotary === undefined) {
    rotary = { full_attention: new RotaryEmbedding(config.globalRotary), sliding_attention: new RotaryEmbedding(config.localRotary) };
    rotaries.set(config, rotary);
  }
  const made = new Map<ModernBertLayerType, ModernBertAttentionInputs>();
  const inputsOf = (type: ModernBertLayerType, hidden: Tensor, padding: Tensor | undefined): ModernBertAttentionInputs => {
    const known = made.get(type);
    if (known !== undefined) return known;
    const [batch, length] = hidden.shape as [number, number, number];
    const positionIds = tile(reshape(range(0, length, 1, 'int32'), [1, length]), [batch, 1]); // [B, T]: 0 .. T − 1 in every row
    const { cos, sin } = (rotary as Record<ModernBertLayerType, RotaryEmbedding>)[type].forward(positionIds); // [B, T, D]
    let mask = padding; // [B, 1, 1, T]
    if (type === 'sliding_attention') {
      const window = slidingWindowMask(length, Math.floor(config.localAttention / 2)); // [1, 1, T, T]
      mask = padding === undefined ? window : logicalAnd(window, padding); // [B, 1, T, T]
    }
    const inputs = { mask, cos, sin };
    made.set(type, inputs);
    return inputs;
  };
  const layers: EncoderLayerLike[] = [...modules.layers].map((layer) => ({
    forward: (hidden: Tensor, padding: Tensor | undefined, _bias?: Tensor, options?: LayerCallOptions) => layer.forward(hidden, inputsOf(layer.type, hidden, padding), options),
  }));
  return {
    embed: (ids) => modules.embeddings.forward(ids),
    layers,
    finalNorm: (hidden) => modules.finalNorm.forward(hidden), // [B, T, E]
  };
}
