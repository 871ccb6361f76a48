import { InvalidArgumentError } from '@attnkit/errors';
import { parseEncoderConfig } from './encoder-config.js';

/** A BERT configuration, read from a Hugging Face `config.json` (camelCase here). */
export interface BertConfig {
  readonly vocabSize: number;
  readonly hiddenSize: number;
  readonly numHiddenLayers: number;
  readonly numAttentionHeads: number;
  readonly intermediateSize: number;
  readonly maxPositionEmbeddings: number;
  /** Segment (token type) vocabulary; 0 for families without token types (DistilBERT, MPNet). */
  readonly typeVocabSize: number;
  readonly layerNormEps: number;
  readonly hiddenDropoutProb: number;
  readonly attentionProbsDropoutProb: number;
  readonly padTokenId: number;
  /** The feed-forward activation, a Hugging Face `hidden_act` name (`'gelu'`, `'gelu_new'`, `'relu'`, ...). */
  readonly hiddenAct: string;
  /** Std of the normal initialisation of a model built without weights (default 0.02). */
  readonly initializerRange: number;
}

/**
 * Validates a Hugging Face BERT `config.json` (already parsed) and returns the fields attnkit
 * uses. Settings attnkit does not implement (an unknown `hidden_act`, relative position embeddings,
 * a decoder) are errors, never silently ignored; other families are read by `parseEncoderConfig`.
 *
 * @example
 * const config = parseBertConfig(JSON.parse(await readFile('model/config.json', 'utf8')));
 */
export function parseBertConfig(json: unknown): BertConfig {
  const modelType = typeof json === 'object' && json !== null && !Array.isArray(json) ? new Map(Object.entries(json)).get('model_type') : undefined;
  if (modelType !== undefined && modelType !== 'bert') {
    throw new InvalidArgumentError({ caller: 'parseBertConfig', argument: 'model_type', expected: '"bert"', received: JSON.stringify(modelType) ?? String(modelType), hint: 'Other families load with loadEncoder (parseEncoderConfig).' });
  }
  const c = parseEncoderConfig(json, 'parseBertConfig');
  return {
    vocabSize: c.vocabSize, hiddenSize: c.hiddenSize, numHiddenLayers: c.numHiddenLayers, numAttentionHeads: c.numAttentionHeads, intermediateSize: c.intermediateSize,
    maxPositionEmbeddings: c.maxPositionEmbeddings, typeVocabSize: c.typeVocabSize, layerNormEps: c.layerNormEps, hiddenDropoutProb: c.hiddenDropoutProb,
    attentionProbsDropoutProb: c.attentionProbsDropoutProb, padTokenId: c.padTokenId, hiddenAct: c.hiddenAct, initializerRange: c.initializerRange,
  };
}
