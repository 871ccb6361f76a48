import type { DecoderModelType } from '../decoder/decoder-config.js';
import { DecoderForCausalLM, type CausalLMOptions } from '../decoder/decoder-for-causal-lm.js';
import { RotaryDecoderModel, type DecoderCheckpoint } from '../decoder/rotary-decoder-model.js';
import type { Qwen2Config } from './qwen2-config.js';

/**
 * transformers' `Qwen2Model` (Qwen2, Qwen2.5): Llama's tree with biases on q, k and v, and sliding
 * windows on the layers `layer_types` names. See {@link RotaryDecoderModel}.
 *
 * @example
 * const model = await loadDecoder('./Qwen2.5-0.5B'); // a Qwen2Model: lastHiddenState [B, T, 896]
 */
export class Qwen2Model extends RotaryDecoderModel {
  static override readonly modelTypes: readonly DecoderModelType[] = ['qwen2'];
}

/**
 * transformers' `Qwen2ForCausalLM`: `model` ({@link Qwen2Model}) and `lm_head` (tied in the small Qwen2.5 models).
 *
 * @example
 * const model = await loadCausalLM('./Qwen2.5-0.5B-Instruct'); // a Qwen2ForCausalLM
 */
export class Qwen2ForCausalLM extends DecoderForCausalLM<Qwen2Model> {
  constructor(config: Qwen2Config, checkpoint?: DecoderCheckpoint, options: CausalLMOptions = {}) {
    super(config, 'model', (values, seed) => new Qwen2Model(config, values, seed === undefined ? {} : { seed }), checkpoint, options);
  }

  /** The decoder (`model.*`). */
  get model(): Qwen2Model {
    return this.base;
  }
}
