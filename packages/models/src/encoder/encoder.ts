import type { Tensor } from '@tensorflow/tfjs-core';
import type { Module } from '@attnkit/nn';
import type { IdsInput } from './check-encoder-inputs.js';
import type { EncoderConfig } from './encoder-config.js';

/** Inputs of an encoder's `forward`: `[B, T]` each, as nested arrays or int32 tensors. */
export interface EncoderInputs {
  readonly inputIds: IdsInput;
  /** 1 = token, 0 = padding (Hugging Face `attention_mask`). Default: all ones. */
  readonly attentionMask?: IdsInput;
  /**
   * Segment ids (0 for the first sentence, 1 for the second). Default: all zeros. Families without
   * token types (DistilBERT, MPNet) accept only zeros here.
   */
  readonly tokenTypeIds?: IdsInput;
  /** Return every layer's attention weights `[B, H, T, T]`. */
  readonly outputAttentions?: boolean;
  /** Return the embeddings and every layer's output `[B, T, E]` (L + 1 tensors). */
  readonly outputHiddenStates?: boolean;
}

/** Named outputs of an encoder's `forward`; the caller disposes them. */
export interface EncoderOutputs {
  /** `[B, T, E]`. */
  readonly lastHiddenState: Tensor;
  /** `[B, E]`: `tanh(dense(h[:, 0]))`, for the families that have a pooler (BERT, RoBERTa, XLM-R, MPNet). */
  readonly poolerOutput?: Tensor;
  /** The embeddings and every layer's output; the last is the same tensor as `lastHiddenState` (dispose each once). */
  readonly hiddenStates?: Tensor[];
  readonly attentions?: Tensor[];
}

/**
 * What every encoder family offers: a `Module` whose parameter keys are its checkpoint's, with
 * `forward` from token ids to hidden states. `loadEncoder` returns one.
 *
 * @example
 * const encoder: Encoder = await loadEncoder('./all-MiniLM-L6-v2');
 * const { lastHiddenState } = encoder.forward({ inputIds, attentionMask }); // [B, T, E]
 */
export interface Encoder extends Module {
  readonly config: EncoderConfig;
  /**
   * Parameters not in the checkpoint, initialised instead: the pooler of a checkpoint saved without
   * one, as transformers does; empty otherwise.
   */
  readonly initialisedKeys: readonly string[];
  forward(inputs: EncoderInputs): EncoderOutputs;
}
