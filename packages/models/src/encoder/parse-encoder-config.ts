import { InvalidArgumentError } from '@attnkit/errors';
import { parseBertConfig } from '../bert/bert-config.js';
import { parseDistilBertConfig } from '../distilbert/distilbert-config.js';
import { parseElectraConfig } from '../electra/electra-config.js';
import { parseModernBertConfig } from '../modernbert/modernbert-config.js';
import { parseMPNetConfig } from '../mpnet/mpnet-config.js';
import { parseRobertaConfig } from '../roberta/roberta-config.js';
import { parseRoFormerConfig } from '../roformer/roformer-config.js';
import { checkNotRemoteCode } from './check-remote-code.js';
import { MODEL_TYPES, type EncoderConfig, type ModelType } from './encoder-config.js';
import { configEntries } from './read-encoder-config.js';

/** Each family's config parser, by `model_type`. */
const PARSERS: Record<ModelType, (json: unknown, caller: string) => EncoderConfig> = {
  bert: parseBertConfig,
  roberta: parseRobertaConfig,
  'xlm-roberta': parseRobertaConfig,
  distilbert: parseDistilBertConfig,
  electra: parseElectraConfig,
  mpnet: parseMPNetConfig,
  roformer: parseRoFormerConfig,
  modernbert: parseModernBertConfig,
};

/**
 * Validates a Hugging Face `config.json` (already parsed) of any family in {@link MODEL_TYPES}
 * with that family's parser, and returns what attnkit uses. Settings attnkit does not implement (an
 * unknown `hidden_act` or `position_embedding_type`, a decoder) and unknown `model_type`s are
 * errors that name the supported values, never silently ignored. A folder that needs its own code
 * (`nomic_bert`, `new`, ..., or an `auto_map` naming custom code, as Jina's `bert` and
 * `xlm-roberta` folders do) is refused by name (`checkNotRemoteCode`) rather than loaded as another
 * architecture. A config without `model_type` is BERT's. A key whose value is `null` reads as left
 * out: its default where the family has one (else the key is refused as missing).
 *
 * @example
 * const config = parseEncoderConfig(JSON.parse(await readFile('model/config.json', 'utf8')));
 * config.modelType; // 'roberta'
 */
export function parseEncoderConfig(json: unknown, caller = 'parseEncoderConfig'): EncoderConfig {
  caller = typeof caller === 'string' ? caller : 'parseEncoderConfig'; // a caller only names the function in messages
  const raw = configEntries(json, caller);
  checkNotRemoteCode(raw, caller);
  const modelType = raw.get('model_type') ?? 'bert';
  if (typeof modelType !== 'string' || !Object.hasOwn(PARSERS, modelType)) {
    throw new InvalidArgumentError({ caller, argument: 'model_type', expected: `one of ${MODEL_TYPES.map((t) => `"${t}"`).join(', ')}`, received: JSON.stringify(modelType) ?? String(modelType), hint: 'docs/models.md lists what loads.' });
  }
  return PARSERS[modelType as ModelType](json, caller);
}
