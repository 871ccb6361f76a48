import { decoderConfigEntries } from '../decoder/config-reader.js';
import type { DecoderConfig } from '../decoder/decoder-config.js';
import { decoderFamilyType, readRotaryDecoderConfig, type RotaryFamilyKeys } from '../decoder/read-rotary-decoder-config.js';

/** A Llama configuration (also Mistral's, SmolLM's, TinyLlama's), read from a Hugging Face `config.json`. */
export interface LlamaConfig extends DecoderConfig {
  readonly modelType: 'llama' | 'mistral';
}

/** `LlamaConfig`'s keys and defaults: biases by `attention_bias` and `mlp_bias`, no sliding window. */
const LLAMA_KEYS: RotaryFamilyKeys = { maxPositionEmbeddings: 2048, attentionBias: 'config', mlpBias: true, queryKeyNorm: false, sliding: 'none' };
/** `MistralConfig`'s: no biases, every layer sliding when `sliding_window` is set (4096 when the key is absent). */
const MISTRAL_KEYS: RotaryFamilyKeys = { maxPositionEmbeddings: 4096 * 32, attentionBias: 'none', mlpBias: false, queryKeyNorm: false, sliding: 'all', defaultSlidingWindow: 4096 };

/**
 * Validates a Hugging Face Llama or Mistral `config.json` (already parsed; `model_type` `"llama"`,
 * `"mistral"` or absent) and returns the fields attnkit uses. Unsupported settings (an unknown
 * `rope_type` or `hidden_act`, a `partial_rotary_factor`) are errors naming the key.
 *
 * @example
 * const config = parseLlamaConfig(JSON.parse(await readFile('SmolLM2-135M/config.json', 'utf8')));
 * const model = new LlamaForCausalLM(config); // random weights
 */
export function parseLlamaConfig(json: unknown, caller = 'parseLlamaConfig'): LlamaConfig {
  const raw = decoderConfigEntries(json, caller);
  const modelType = decoderFamilyType(raw, ['llama', 'mistral'], caller);
  return readRotaryDecoderConfig(modelType, raw, modelType === 'mistral' ? MISTRAL_KEYS : LLAMA_KEYS, caller);
}
