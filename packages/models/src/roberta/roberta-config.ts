import type { EncoderConfig } from '../encoder/encoder-config.js';
import { BERT_KEYS, parseFamilyConfig, type EncoderConfigKeys } from '../encoder/read-encoder-config.js';

/** A RoBERTa or XLM-RoBERTa configuration (identical architectures), read from `config.json`. */
export interface RobertaConfig extends EncoderConfig {
  readonly modelType: 'roberta' | 'xlm-roberta';
}

/** BERT's names; padding id 1, positions counted after it. */
const KEYS: EncoderConfigKeys = { ...BERT_KEYS, padTokenId: 1, positionsAfterPadding: true, tokenTypes: true, layerNormEps: true, positions: 'relative' };

/**
 * Validates a RoBERTa or XLM-RoBERTa `config.json` (`model_type` `"roberta"`, `"xlm-roberta"` or
 * absent). Positions count from `pad_token_id + 1`, so sequences hold at most
 * `max_position_embeddings - pad_token_id - 1` tokens (`maxSequenceLength`).
 *
 * @example
 * parseRobertaConfig(json).maxSequenceLength; // 512 for max_position_embeddings 514, pad_token_id 1
 */
export function parseRobertaConfig(json: unknown, caller = 'parseRobertaConfig'): RobertaConfig {
  caller = typeof caller === 'string' ? caller : 'parseRobertaConfig'; // a caller only names the function in messages
  return parseFamilyConfig(json, ['roberta', 'xlm-roberta'], KEYS, caller);
}
