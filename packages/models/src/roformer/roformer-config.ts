import { InvalidArgumentError } from '@attnkit/errors';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { BERT_KEYS, parseFamilyConfig, type EncoderConfigKeys } from '../encoder/read-encoder-config.js';

/** A RoFormer configuration, read from `config.json`: BERT's, with `embedding_size` and `rotary_value`. */
export interface RoFormerConfig extends EncoderConfig {
  readonly modelType: 'roformer';
  readonly positionEmbeddingType: 'rotary';
}

const KEYS: EncoderConfigKeys = { ...BERT_KEYS, padTokenId: 0, positionsAfterPadding: false, tokenTypes: true, layerNormEps: true, embeddingSize: 'hiddenSize', positions: 'rotary' };

/**
 * Validates a RoFormer `config.json` (`model_type` `"roformer"` or absent): BERT's fields,
 * `embedding_size` (default `hidden_size`: the embeddings' width before `embeddings_project`) and
 * `rotary_value` (default false: the values turn too). Positions are rotary (`positionEmbeddingType`
 * `'rotary'`); sequences hold at most `max_position_embeddings` tokens. The head width
 * `hidden_size / num_attention_heads` must be even (rotary embeddings turn pairs).
 *
 * @example
 * parseRoFormerConfig(json).rotaryValue; // false for junnyu/roformer_chinese_base
 */
export function parseRoFormerConfig(json: unknown, caller = 'parseRoFormerConfig'): RoFormerConfig {
  caller = typeof caller === 'string' ? caller : 'parseRoFormerConfig'; // a caller only names the function in messages
  const config = parseFamilyConfig(json, ['roformer'], KEYS, caller) as RoFormerConfig;
  const headDim = config.hiddenSize / config.numAttentionHeads;
  if (headDim % 2 !== 0) throw new InvalidArgumentError({ caller, argument: 'hidden_size', expected: 'an even head width hidden_size / num_attention_heads (rotary embeddings turn pairs of dimensions)', received: `${config.hiddenSize} / ${config.numAttentionHeads} = ${headDim}` });
  return config;
}
