import type { EncoderConfig } from '../encoder/encoder-config.js';
import { BERT_KEYS, parseFamilyConfig, type EncoderConfigKeys } from '../encoder/read-encoder-config.js';

/** An MPNet configuration, read from `config.json`: BERT's, without token types, with relative position buckets. */
export interface MPNetConfig extends EncoderConfig {
  readonly modelType: 'mpnet';
}

const KEYS: EncoderConfigKeys = { ...BERT_KEYS, padTokenId: 1, positionsAfterPadding: true, tokenTypes: false, layerNormEps: true, relativeAttentionBuckets: true };

/**
 * Validates an MPNet `config.json` (`model_type` `"mpnet"` or absent): BERT's fields without token
 * types, positions counted from `pad_token_id + 1`, and `relative_attention_num_buckets` (default 32).
 *
 * @example
 * parseMPNetConfig(json).relativeAttentionNumBuckets; // 32
 */
export function parseMPNetConfig(json: unknown, caller = 'parseMPNetConfig'): MPNetConfig {
  caller = typeof caller === 'string' ? caller : 'parseMPNetConfig'; // a caller only names the function in messages
  return parseFamilyConfig(json, ['mpnet'], KEYS, caller);
}
