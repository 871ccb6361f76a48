import type { DecoderModelType } from '../decoder/decoder-config.js';
import { DecoderForCausalLM, type CausalLMOptions } from '../decoder/decoder-for-causal-lm.js';
import { RotaryDecoderModel, type DecoderCheckpoint } from '../decoder/rotary-decoder-model.js';
import type { Qwen3Config } from './qwen3-config.js';

/**
 * transformers' `Qwen3Model`: Llama's tree with an RMSNorm of each query and key head before rotary
 * (`self_attn.q_norm`, `self_attn.k_norm`) and its own `head_dim`. See {@link RotaryDecoderModel}.
 *
 * @example
 * const model = await loadDecoder('./Qwen3-Embedding-0.6B'); // a Qwen3Model: lastHiddenState [B, T, 1024]
 */
export class Qwen3Model extends RotaryDecoderModel {
  static override readonly modelTypes: readonly DecoderModelType[] = ['qwen3'];
}

/**
 * transformers' `Qwen3ForCausalLM`: `model` ({@link Qwen3Model}) and `lm_head` (tied or not, as `tie_word_embeddings` says).
 *
 * @example
 * const model = await loadCausalLM('./Qwen3-0.6B'); // a Qwen3ForCausalLM
 */
export class Qwen3ForCausalLM extends DecoderForCausalLM<Qwen3Model> {
  constructor(config: Qwen3Config, checkpoint?: DecoderCheckpoint, options: CausalLMOptions = {}) {
    super(config, 'model', (values, seed) => new Qwen3Model(config, values, seed === undefined ? {} : { seed }), checkpoint, options);
  }

  /** The decoder (`model.*`). */
  get model(): Qwen3Model {
    return this.base;
  }
}
