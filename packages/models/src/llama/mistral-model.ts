import type { DecoderModelType } from '../decoder/decoder-config.js';
import { DecoderForCausalLM, type CausalLMOptions } from '../decoder/decoder-for-causal-lm.js';
import { RotaryDecoderModel, type DecoderCheckpoint } from '../decoder/rotary-decoder-model.js';
import type { LlamaConfig } from './llama-config.js';

/**
 * transformers' `MistralModel`: Llama's tree without biases, every layer attending over a sliding
 * window of `sliding_window` positions when the config sets one. See {@link RotaryDecoderModel}.
 *
 * @example
 * const model = new MistralModel(parseLlamaConfig(json)); // model_type "mistral"
 */
export class MistralModel extends RotaryDecoderModel {
  static override readonly modelTypes: readonly DecoderModelType[] = ['mistral'];
}

/**
 * transformers' `MistralForCausalLM`: `model` ({@link MistralModel}) and `lm_head`.
 *
 * @example
 * const model = await loadCausalLM('./Mistral-7B-v0.3'); // a MistralForCausalLM
 */
export class MistralForCausalLM extends DecoderForCausalLM<MistralModel> {
  constructor(config: LlamaConfig, checkpoint?: DecoderCheckpoint, options: CausalLMOptions = {}) {
    super(config, 'model', (values, seed) => new MistralModel(config, values, seed === undefined ? {} : { seed }), checkpoint, options);
  }

  /** The decoder (`model.*`). */
  get model(): MistralModel {
    return this.base;
  }
}
