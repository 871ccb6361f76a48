/**
 * How a decoder family names its tensors in `model.safetensors` — the one place a stored name becomes
 * a parameter key (`decoderStateDict` reads it): the base model's path in a causal LM (`model.` for
 * Llama and Qwen, `transformer.` for GPT-2; a folder saved from the base model has none), the buffers
 * old checkpoints store and no model has as a parameter, and the weights stored transposed.
 */
export interface DecoderCheckpointKeys {
  /** The base model's child in the causal LM: `'model'` (`model.layers.0...`) or `'transformer'` (`transformer.h.0...`). */
  readonly basePath: string;
  /** Stored buffers that are not parameters (rotary `inv_freq`, GPT-2's causal `attn.bias`): skipped. */
  readonly buffers: RegExp;
  /** Weights stored `[in, out]` (GPT-2's `Conv1D`), transposed to `Linear`'s `[out, in]`. */
  readonly transposed?: RegExp;
}

/** Llama, Mistral, Qwen2 and Qwen3: `model.*` and `lm_head.weight`, as the module trees; `rotary_emb.inv_freq` of old checkpoints skipped. */
export const ROTARY_DECODER_CHECKPOINT_KEYS: DecoderCheckpointKeys = {
  basePath: 'model',
  buffers: /(^|\.)rotary_emb\.inv_freq$/,
};
