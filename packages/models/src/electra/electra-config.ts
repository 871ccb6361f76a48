import type { EncoderConfig } from '../encoder/encoder-config.js';
import { BERT_KEYS, parseFamilyConfig, type EncoderConfigKeys } from '../encoder/read-encoder-config.js';

/** An ELECTRA configuration, read from `config.json`: BERT's, with its own `embedding_size`. */
export interface ElectraConfig extends EncoderConfig {
  readonly modelType: 'electra';
}

const KEYS: EncoderConfigKeys = { ...BERT_KEYS, padTokenId: 0, positionsAfterPadding: false, tokenTypes: true, layerNormEps: true, embeddingSize: true, positions: 'relative' };

/**
 * Validates an ELECTRA `config.json` (`model_type` `"electra"` or absent): BERT's fields, and
 * `embedding_size` (default 128), the width of the embeddings before `embeddings_project`.
 *
 * @example
 * parseElectraConfig(json).embeddingSize; // 128 for electra-small
 */
export function parseElectraConfig(json: unknown, caller = 'parseElectraConfig'): ElectraConfig {
  caller = typeof caller === 'string' ? caller : 'parseElectraConfig'; // a caller only names the function in messages
  return parseFamilyConfig(json, ['electra'], KEYS, caller);
}
