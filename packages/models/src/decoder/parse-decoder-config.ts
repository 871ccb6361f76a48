import { InvalidArgumentError } from '@attnkit/errors';
import { parseGpt2Config } from '../gpt2/gpt2-config.js';
import { parseLlamaConfig } from '../llama/llama-config.js';
import { parseQwen2Config } from '../qwen2/qwen2-config.js';
import { parseQwen3Config } from '../qwen3/qwen3-config.js';
import { decoderConfigEntries } from './config-reader.js';
import { DECODER_MODEL_TYPES, type DecoderConfig, type DecoderModelType } from './decoder-config.js';

/** Each family's config parser, by `model_type`. */
const PARSERS: Record<DecoderModelType, (json: unknown, caller: string) => DecoderConfig> = {
  gpt2: parseGpt2Config,
  llama: parseLlamaConfig,
  mistral: parseLlamaConfig,
  qwen2: parseQwen2Config,
  qwen3: parseQwen3Config,
};

/**
 * Validates a Hugging Face `config.json` (already parsed) of any decoder family in
 * {@link DECODER_MODEL_TYPES} with that family's parser. A missing or unknown `model_type` is an
 * error listing the supported ones; settings attnkit does not implement are errors naming the key.
 *
 * @example
 * const config = parseDecoderConfig(JSON.parse(await readFile('Qwen3-0.6B/config.json', 'utf8')));
 * config.modelType; // 'qwen3'
 */
export function parseDecoderConfig(json: unknown, caller = 'parseDecoderConfig'): DecoderConfig {
  const modelType = decoderConfigEntries(json, caller).get('model_type');
  if (typeof modelType !== 'string' || !Object.hasOwn(PARSERS, modelType)) {
    throw new InvalidArgumentError({ caller, argument: 'model_type', expected: `one of ${DECODER_MODEL_TYPES.map((t) => `"${t}"`).join(', ')}`, received: JSON.stringify(modelType) ?? String(modelType), hint: 'docs/models.md lists the decoder families that load; encoders load with loadEncoder.' });
  }
  return PARSERS[modelType as DecoderModelType](json, caller);
}
