import type { KvCache } from '@attnkit/attention';
import type { Embedding, Module } from '@attnkit/nn';
import type { DecoderConfig } from './decoder-config.js';
import type { DecoderInputs, DecoderOutputs } from './decoder-inputs.js';

/** Options of a decoder's `createCache`. */
export interface CreateCacheOptions {
  /** The most positions (prompt, padding and generated tokens) the cache holds; a step past it is a typed error. Default `maxPositionEmbeddings`. */
  readonly maxLength?: number;
}

/**
 * What every decoder family's headless model offers (`LlamaModel`, `Qwen2Model`, `Qwen3Model`,
 * `MistralModel`, `GPT2Model`): a `Module` whose parameter keys are its checkpoint's, with `forward`
 * from token ids to hidden states (`last_hidden_state`, for embeddings) and a KV cache of its shape.
 *
 * @example
 * const { lastHiddenState } = model.forward({ inputIds, attentionMask }); // [B, T, E]
 */
export interface DecoderModel extends Module {
  readonly config: DecoderConfig;
  /** The token embedding (`embed_tokens`, GPT-2's `wte`): a tied head's weight. */
  readonly inputEmbeddings: Embedding;
  /** `caller`: the name errors give (a causal LM passes its own `forward`'s). */
  forward(inputs: DecoderInputs, caller?: string): DecoderOutputs;
  /** An empty `KvCache` for this model's layers, bounded by `maxLength`. */
  createCache(options?: CreateCacheOptions): KvCache;
}
