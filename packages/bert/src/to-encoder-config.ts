import type { BertConfig } from './bert-config.js';
import type { EncoderConfig, ModelType } from './encoder-config.js';

/** A `BertConfig` as an `EncoderConfig` of `modelType` (positions from 0, no projection); an `EncoderConfig` as it is. */
export function toEncoderConfig(config: BertConfig | EncoderConfig, modelType: ModelType): EncoderConfig {
  if ('modelType' in config) return config;
  return { ...config, modelType, embeddingSize: config.hiddenSize, positionOffset: 0, maxSequenceLength: config.maxPositionEmbeddings, relativeAttentionNumBuckets: 0 };
}
