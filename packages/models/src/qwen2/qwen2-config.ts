import { decoderConfigEntries } from '../decoder/config-reader.js';
import type { DecoderConfig } from '../decoder/decoder-config.js';
import { decoderFamilyType, readRotaryDecoderConfig, type RotaryFamilyKeys } from '../decoder/read-rotary-decoder-config.js';

/** A Qwen2 (Qwen2.5) configuration, read from a Hugging Face `config.json`. */
export interface Qwen2Config extends DecoderConfig {
  readonly modelType: 'qwen2';
}

/** `Qwen2Config`'s keys and defaults: biases on q, k and v (none on o), sliding windows by `layer_types`. */
const KEYS: RotaryFamilyKeys = { maxPositionEmbeddings: 32768, attentionBias: 'qkv', mlpBias: false, queryKeyNorm: false, sliding: 'layer_types' };

/**
 * Validates a Hugging Face Qwen2 `config.json` (already parsed; `model_type` `"qwen2"` or absent)
 * and returns the fields attnkit uses; unsupported settings are errors naming the key.
 *
 * @example
 * const config = parseQwen2Config(JSON.parse(await readFile('Qwen2.5-0.5B/config.json', 'utf8')));
 */
export function parseQwen2Config(json: unknown, caller = 'parseQwen2Config'): Qwen2Config {
  const raw = decoderConfigEntries(json, caller);
  return readRotaryDecoderConfig(decoderFamilyType(raw, ['qwen2'], caller), raw, KEYS, caller);
}
