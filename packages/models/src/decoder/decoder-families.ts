import { GPT2_CHECKPOINT_KEYS } from '../gpt2/gpt2-checkpoint-keys.js';
import type { Gpt2Config } from '../gpt2/gpt2-config.js';
import { GPT2LMHeadModel, GPT2Model } from '../gpt2/gpt2-model.js';
import type { LlamaConfig } from '../llama/llama-config.js';
import { LlamaForCausalLM, LlamaModel } from '../llama/llama-model.js';
import { MistralForCausalLM, MistralModel } from '../llama/mistral-model.js';
import type { Qwen2Config } from '../qwen2/qwen2-config.js';
import { Qwen2ForCausalLM, Qwen2Model } from '../qwen2/qwen2-model.js';
import type { Qwen3Config } from '../qwen3/qwen3-config.js';
import { Qwen3ForCausalLM, Qwen3Model } from '../qwen3/qwen3-model.js';
import { ROTARY_DECODER_CHECKPOINT_KEYS, type DecoderCheckpointKeys } from './decoder-checkpoint-keys.js';
import type { DecoderConfig, DecoderModelType } from './decoder-config.js';
import type { CausalLM, CausalLMOptions } from './decoder-for-causal-lm.js';
import type { DecoderModel } from './decoder-model.js';
import type { DecoderCheckpoint } from './rotary-decoder-model.js';

/** A decoder family as the loaders build it: its causal LM, its headless model, and how its checkpoint names tensors. */
export interface DecoderFamily {
  readonly causalLM: (config: DecoderConfig, checkpoint: DecoderCheckpoint, options: CausalLMOptions) => CausalLM;
  readonly model: (config: DecoderConfig, checkpoint: DecoderCheckpoint) => DecoderModel;
  readonly checkpointKeys: DecoderCheckpointKeys;
}

/** The classes of each `model_type` (the config is the one its family's parser read). */
export const DECODER_FAMILIES: Readonly<Record<DecoderModelType, DecoderFamily>> = {
  gpt2: { causalLM: (c, w, o) => new GPT2LMHeadModel(c as Gpt2Config, w, o), model: (c, w) => new GPT2Model(c as Gpt2Config, w), checkpointKeys: GPT2_CHECKPOINT_KEYS },
  llama: { causalLM: (c, w, o) => new LlamaForCausalLM(c as LlamaConfig, w, o), model: (c, w) => new LlamaModel(c, w), checkpointKeys: ROTARY_DECODER_CHECKPOINT_KEYS },
  mistral: { causalLM: (c, w, o) => new MistralForCausalLM(c as LlamaConfig, w, o), model: (c, w) => new MistralModel(c, w), checkpointKeys: ROTARY_DECODER_CHECKPOINT_KEYS },
  qwen2: { causalLM: (c, w, o) => new Qwen2ForCausalLM(c as Qwen2Config, w, o), model: (c, w) => new Qwen2Model(c, w), checkpointKeys: ROTARY_DECODER_CHECKPOINT_KEYS },
  qwen3: { causalLM: (c, w, o) => new Qwen3ForCausalLM(c as Qwen3Config, w, o), model: (c, w) => new Qwen3Model(c, w), checkpointKeys: ROTARY_DECODER_CHECKPOINT_KEYS },
};
