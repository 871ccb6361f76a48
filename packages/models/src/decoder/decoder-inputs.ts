import type { Tensor } from '@tensorflow/tfjs-core';
import type { KvCache } from '@attnkit/attention';
import type { IdsInput } from '../encoder/check-encoder-inputs.js';

/** Inputs of a decoder's `forward`: `[B, T]` nested arrays or int32 tensors, and the cache of earlier steps. */
export interface DecoderInputs {
  /** The new tokens, `[B, T]`. */
  readonly inputIds: IdsInput;
  /**
   * 1 = token, 0 = padding (Hugging Face `attention_mask`), `[B, T]` for the new tokens or, as
   * transformers takes it with a cache, `[B, S]` for every position so far (the cache remembers the
   * earlier columns; only the last T are read). Default: all ones. Left padding is the generation
   * layout: each row's positions count its own tokens.
   */
  readonly attentionMask?: IdsInput;
  /**
   * Int32 `[B, T]` positions of the new tokens. Default: each row's count of its tokens so far
   * (`attention_mask.cumsum(-1) - 1`, as transformers' `generate` makes them; transformers' `forward`
   * counts padding too, which differs for padded rows only).
   */
  readonly positionIds?: IdsInput;
  /** The keys and values of earlier steps (`model.createCache()`), appended to and returned; its positions and padding continue. */
  readonly pastKeyValues?: KvCache;
  /** Without `pastKeyValues`: start a cache (bounded by `maxPositionEmbeddings`) and return it. Default false. */
  readonly useCache?: boolean;
}

/** Named outputs of a decoder's `forward`; the caller disposes `lastHiddenState` (and the cache when done). */
export interface DecoderOutputs {
  /** `[B, T, E]`: after the final norm (transformers' `last_hidden_state`). */
  readonly lastHiddenState: Tensor;
  /** The cache holding this step's keys and values (`pastKeyValues`, or the one `useCache` started); `undefined` without one. */
  readonly pastKeyValues: KvCache | undefined;
}

/** Inputs of a causal language model's `forward`. */
export interface CausalLMInputs extends DecoderInputs {
  /** Logits of the last N positions only (transformers' `logits_to_keep`; generation keeps 1). Default: all T. */
  readonly logitsToKeep?: number;
}

/** Named outputs of a causal language model's `forward`; the caller disposes `logits`. */
export interface CausalLMOutputs {
  /** `[B, T, V]` (or `[B, logitsToKeep, V]`), before any softmax. */
  readonly logits: Tensor;
  readonly pastKeyValues: KvCache | undefined;
}
