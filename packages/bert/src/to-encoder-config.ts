import type { BertConfig } from './bert-config.js';
import type { EncoderConfig, ModelType } from './encoder-config.js';
import { InvalidArgumentError, checkObject, describeValue } from '@attnkit/errors';

/** A `BertConfig` as an `EncoderConfig` of `modelType` (positions from 0, no projection); an `EncoderConfig` as it is. */
export function toEncoderConfig(config: BertConfig | EncoderConfig, modelType: ModelType): EncoderConfig {
  checkObject(config, { caller: 'toEncoderConfig', argument: 'config', expected: 'a parsed config (parseEncoderConfig or parseBertConfig)' });
  if (typeof (config as { hiddenSize?: unknown }).hiddenSize !== 'number') throw new InvalidArgumentError({ caller: 'toEncoderConfig', argument: 'config', expected: 'a parsed config (parseEncoderConfig or parseBertConfig): config.json\'s fields in camelCase', received: describeValue(config) });
  if ('modelType' in config) return config;
  return { ...config, modelType, embeddingSize: config.hiddenSize, positionOffset: 0, maxSequenceLength: config.maxPositionEmbeddings, relativeAttentionNumBuckets: 0 };
}
