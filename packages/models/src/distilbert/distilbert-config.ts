import type { EncoderConfig } from '../encoder/encoder-config.js';
import { parseFamilyConfig, type EncoderConfigKeys } from '../encoder/read-encoder-config.js';

/** A DistilBERT configuration, read from `config.json` (its `dim`, `n_layers`, ... in BERT's words). */
export interface DistilBertConfig extends EncoderConfig {
  readonly modelType: 'distilbert';
}

/** DistilBERT's own names (`dim` is `hiddenSize`, ...); no token types, no `layer_norm_eps` (1e-12). */
const KEYS: EncoderConfigKeys = {
  vocabSize: 'vocab_size', hiddenSize: 'dim', numHiddenLayers: 'n_layers', numAttentionHeads: 'n_heads', intermediateSize: 'hidden_dim', maxPositionEmbeddings: 'max_position_embeddings',
  hiddenAct: 'activation', hiddenDropoutProb: 'dropout', attentionProbsDropoutProb: 'attention_dropout', padTokenId: 0, positionsAfterPadding: false, tokenTypes: false, layerNormEps: false,
};

/**
 * Validates a DistilBERT `config.json` (`model_type` `"distilbert"` or absent), its keys read in
 * BERT's words: `dim` → `hiddenSize`, `n_layers` → `numHiddenLayers`, `n_heads`, `hidden_dim`,
 * `activation`, `dropout`, `attention_dropout`.
 *
 * @example
 * parseDistilBertConfig({ model_type: 'distilbert', vocab_size: 30522, dim: 768, n_layers: 6, n_heads: 12, hidden_dim: 3072, max_position_embeddings: 512 }).hiddenSize; // 768
 */
export function parseDistilBertConfig(json: unknown, caller = 'parseDistilBertConfig'): DistilBertConfig {
  caller = typeof caller === 'string' ? caller : 'parseDistilBertConfig'; // a caller only names the function in messages
  return parseFamilyConfig(json, ['distilbert'], KEYS, caller);
}
