import { notEqual, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { scaledDotProductAttention, scaledDotProductAttentionOutput, type AttentionOptions } from '@attnkit/attention';
import { assertBackendReady } from '@attnkit/backends';
import { checkBoolean, checkObject } from '@attnkit/errors';
import { checkIds, checkSequenceLength } from './check-encoder-inputs.js';
import type { EncoderInputs, EncoderOutputs } from './encoder.js';
import type { EncoderConfig } from './encoder-config.js';

/** Options of an encoder layer's (and its self-attention's) forward. */
export interface LayerCallOptions {
  /**
   * Also return the attention weights `[B, H, T, T]` (default false). Without them the attention
   * needs only its output, which on wasm (outside training) runs as one fused kernel that never
   * holds the weights.
   */
  readonly outputAttentions?: boolean | undefined;
}

/** An encoder layer as the runner calls it: `hidden [B, T, E]`, mask bool `[B, 1, 1, T]`, bias `[1, H, T, T]` → `hidden [B, T, E]`, `weights [B, H, T, T]` when asked for. */
export interface EncoderLayerLike {
  forward(hidden: Tensor, mask: Tensor | undefined, bias?: Tensor, options?: LayerCallOptions): { hidden: Tensor; weights: Tensor | undefined };
}

/**
 * Attention over heads for the families' self-attention: `scaledDotProductAttention` when the
 * weights are asked for, else `scaledDotProductAttentionOutput` (fused on wasm outside training).
 * `q [B, H, T, D]`, `k`, `v [B, H, T, D]` → `{ output [B, H, T, D], weights [B, H, T, T] | undefined }`.
 *
 * @example
 * const { output, weights } = attendHeads(q, k, v, { mask, dropout: 0.1, training }, { outputAttentions });
 */
export function attendHeads(query: Tensor, key: Tensor, value: Tensor, attention: AttentionOptions, options: LayerCallOptions = {}): { output: Tensor; weights: Tensor | undefined } {
  if (options.outputAttentions !== true) return { output: scaledDotProductAttentionOutput(query, key, value, attention), weights: undefined };
  const { output, attentionWeights } = scaledDotProductAttention(query, key, value, attention);
  return { output, weights: attentionWeights };
}

/** The parts of a family's forward pass, in order. */
export interface EncoderParts {
  /** Token ids (and types, when the family has them) → `[B, T, E]`. */
  embed(inputIds: Tensor, tokenTypeIds: Tensor | undefined): Tensor;
  readonly layers: Iterable<EncoderLayerLike>;
  /** A score bias shared by every layer (MPNet's relative positions): `T` → `[1, H, T, T]`. */
  positionBias?(length: number): Tensor;
  /**
   * The norm after the last layer (ModernBERT's `final_norm`): `h [B, T, E]` → `[B, T, E]`, which
   * becomes `lastHiddenState` and the last of `hiddenStates` (as transformers returns them).
   */
  finalNorm?(hidden: Tensor): Tensor;
  /** `h [B, T, E]` → `[B, E]` (the families with a pooler). */
  pool?(hidden: Tensor): Tensor;
}

/**
 * The forward pass every family shares: inputs checked (ids below the vocabulary, mask 0/1, token
 * types below the type vocabulary or zero where the family has none, length within the position
 * table), the padding mask built once as bool `[B, 1, 1, T]`, then embeddings, layers, a final norm
 * (ModernBERT) and pooler.
 */
export function encoderForward(caller: string, config: EncoderConfig, parts: EncoderParts, inputs: EncoderInputs): EncoderOutputs {
  assertBackendReady(caller);
  checkObject(inputs, { caller, argument: 'inputs', expected: 'an object { inputIds, attentionMask?, tokenTypeIds?, outputAttentions?, outputHiddenStates? }' });
  checkBoolean(inputs.outputAttentions, { caller, argument: 'outputAttentions', fallback: false });
  checkBoolean(inputs.outputHiddenStates, { caller, argument: 'outputHiddenStates', fallback: false });
  const owned: Tensor[] = [];
  const take = ({ ids, created }: { ids: Tensor; created: boolean }): Tensor => (created && owned.push(ids), ids);
  try {
    const inputIds = take(checkIds(caller, 'inputIds', inputs.inputIds, config.vocabSize));
    const [batch = 0, length = 0] = inputIds.shape;
    checkSequenceLength(caller, config, length);
    const attentionMask = inputs.attentionMask === undefined ? undefined : take(checkIds(caller, 'attentionMask', inputs.attentionMask, 2, [batch, length]));
    // families without token types take only zeros (what their tokenizers' type ids are)
    const tokenTypeIds = inputs.tokenTypeIds === undefined ? undefined : take(checkIds(caller, 'tokenTypeIds', inputs.tokenTypeIds, Math.max(config.typeVocabSize, 1), [batch, length]));
    return tidy(() => {
      // 1. Embeddings; 2. the key padding mask, built once: [B, T] 0/1 -> bool [B, 1, 1, T] (true = may attend)
      let hidden = parts.embed(inputIds, config.typeVocabSize === 0 ? undefined : tokenTypeIds); // [B, T, E]
      const mask = attentionMask === undefined ? undefined : reshape(notEqual(attentionMask, 0), [batch, 1, 1, length]);
      const bias = parts.positionBias?.(length); // [1, H, T, T]

      // 3. N layers (the attention weights only when asked for: without them, wasm runs the attention fused)
      const outputAttentions = inputs.outputAttentions === true;
      const hiddenStates: Tensor[] = [hidden];
      const attentions: Tensor[] = [];
      for (const layer of parts.layers) {
        const out = layer.forward(hidden, mask, bias, { outputAttentions });
        hidden = out.hidden;
        hiddenStates.push(hidden);
        if (outputAttentions && out.weights !== undefined) attentions.push(out.weights); // [B, H, T, T]
      }
      if (parts.finalNorm !== undefined) {
        hidden = parts.finalNorm(hidden); // [B, T, E]
        hiddenStates[hiddenStates.length - 1] = hidden;
      }
      return {
        lastHiddenState: hidden,
        ...(parts.pool === undefined ? {} : { poolerOutput: parts.pool(hidden) }), // 4. pooler
        ...(inputs.outputHiddenStates === true ? { hiddenStates } : {}),
        ...(outputAttentions ? { attentions } : {}),
      };
    });
  } finally {
    owned.forEach((t) => t.dispose());
  }
}
