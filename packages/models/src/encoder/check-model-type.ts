import { InvalidArgumentError } from '@attnkit/errors';
import type { EncoderConfig, ModelType } from './encoder-config.js';
import { checkEncoderConfig } from './check-encoder-config.js';

/** `config` when its `modelType` is one a model class builds and its fields are what a parser gives (`checkEncoderConfig`); a typed error naming them otherwise. */
export function checkModelType(config: EncoderConfig, expected: readonly ModelType[], caller: string): EncoderConfig {
  if (typeof config !== 'object' || config === null || !expected.includes(config.modelType)) {
    throw new InvalidArgumentError({ caller, argument: 'config.modelType', expected: expected.map((t) => `"${t}"`).join(' or '), received: JSON.stringify((config as { modelType?: unknown } | null)?.modelType) ?? 'undefined', hint: 'parseEncoderConfig reads it from config.json; loadEncoder picks the model class.' });
  }
  return checkEncoderConfig(config, caller);
}
