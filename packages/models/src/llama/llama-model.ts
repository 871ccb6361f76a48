import type { DecoderModelType } from '../decoder/decoder-config.js';
import { DecoderForCausalLM, type CausalLMOptions } from '../decoder/decoder-for-causal-lm.js';
import { RotaryDecoderModel, type DecoderCheckpoint } from '../decoder/rotary-decoder-model.js';
import type { LlamaConfig } from './llama-config.js';

// The module trees mirror transformers' modeling_llama: `model.embed_tokens`, `model.layers.N.self_attn.q_proj`,
// `model.layers.N.mlp.gate_proj`, `model.norm`, `lm_head`; a parameter's dotted path is its checkpoint key.

/**
 * transformers' `LlamaModel` (SmolLM, TinyLlama, Llama 2 and 3 configs): the headless decoder, for
 * `last_hidden_state` (embeddings). See {@link RotaryDecoderModel}.
 *
 * @example
 * const model = new LlamaModel(parseLlamaConfig(json), checkpoint); // keys embed_tokens.weight, layers.0...
 */
export class LlamaModel extends RotaryDecoderModel {
  static override readonly modelTypes: readonly DecoderModelType[] = ['llama'];
}

/**
 * transformers' `LlamaForCausalLM`: `model` ({@link LlamaModel}) and `lm_head` (tied to
 * `model.embed_tokens` with `tie_word_embeddings`). See {@link DecoderForCausalLM}.
 *
 * @example
 * const model = await loadCausalLM('./SmolLM2-135M'); // a LlamaForCausalLM
 * const { logits } = model.forward({ inputIds: [[1, 2, 3]] }); // [1, 3, V]
 */
export class LlamaForCausalLM extends DecoderForCausalLM<LlamaModel> {
  /** `checkpoint`: values by key (`model.*`, `lm_head.weight`), loaded strictly; without one, random weights (`seed`). */
  constructor(config: LlamaConfig, checkpoint?: DecoderCheckpoint, options: CausalLMOptions = {}) {
    super(config, 'model', (values, seed) => new LlamaModel(config, values, seed === undefined ? {} : { seed }), checkpoint, options);
  }

  /** The decoder (`model.*`). */
  get model(): LlamaModel {
    return this.base;
  }
}
