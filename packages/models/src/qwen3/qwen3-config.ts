import { decoderConfigEntries } from '../decoder/config-reader.js';
import type { DecoderConfig } from '../decoder/decoder-config.js';
import { decoderFamilyType, readRotaryDecoderConfig, type RotaryFamilyKeys } from '../decoder/read-rotary-decoder-config.js';

/** A Qwen3 configuration, read from a Hugging Face `config.json`. */
export interface Qwen3Config extends DecoderConfig {
  readonly modelType: 'qwen3';
}

/** `Qwen3Config`'s keys and defaults: biases by `attention_bias`, q/k RMSNorm, sliding windows by `layer_types`. */
const KEYS: RotaryFamilyKeys = { maxPositionEmbeddings: 32768, attentionBias: 'config', mlpBias: false, queryKeyNorm: true, sliding: 'layer_types' };

/**
 * Validates a Hugging Face Qwen3 `config.json` (already parsed; `model_type` `"qwen3"` or absent)
 * and returns the fields attnkit uses; unsupported settings are errors naming the key.
 *
 * @example
 * const config = parseQwen3Config(JSON.parse(await readFile('Qwen3-0.6B/config.json', 'utf8')));
 */
export function parseQwen3Config(json: unknown, caller = 'parseQwen3Config'): Qwen3Config {
  const raw = decoderConfigEntries(json, caller);
  return readRotaryDecoderConfig(decoderFamilyType(raw, ['qwen3'], caller), raw, KEYS, caller);
}
