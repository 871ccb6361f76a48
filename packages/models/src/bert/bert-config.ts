import type { EncoderConfig } from '../encoder/encoder-config.js';
import { BERT_KEYS, parseFamilyConfig, type EncoderConfigKeys } from '../encoder/read-encoder-config.js';

/** A BERT configuration, read from a Hugging Face `config.json` (camelCase here). */
export interface BertConfig extends EncoderConfig {
  readonly modelType: 'bert';
}

/** BERT's config.json: `BertConfig`'s names and defaults. */
const KEYS: EncoderConfigKeys = { ...BERT_KEYS, padTokenId: 0, positionsAfterPadding: false, tokenTypes: true, layerNormEps: true, positions: 'relative' };

/**
 * Validates a Hugging Face BERT `config.json` (already parsed; `model_type` `"bert"` or absent) and
 * returns the fields attnkit uses. `position_embedding_type` may be `absolute`, `relative_key` or
 * `relative_key_query` (as transformers ≤ 4.57 builds them; 5.x dropped the relative types).
 * Settings attnkit does not implement (an unknown `hidden_act` or position type, a decoder) are
 * errors, never silently ignored; other families are read by their own parsers, or by
 * `parseEncoderConfig` for any of them.
 *
 * @example
 * const config = parseBertConfig(JSON.parse(await readFile('model/config.json', 'utf8')));
 * const model = new BertModel(config); // initialised as transformers does
 */
export function parseBertConfig(json: unknown, caller = 'parseBertConfig'): BertConfig {
  caller = typeof caller === 'string' ? caller : 'parseBertConfig'; // a caller only names the function in messages
  return parseFamilyConfig(json, ['bert'], KEYS, caller);
}
