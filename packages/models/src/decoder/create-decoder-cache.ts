import { KvCache } from '@attnkit/attention';
import { checkInteger, checkObject, checkOptionKeys } from '@attnkit/errors';
import type { DecoderConfig } from './decoder-config.js';
import type { CreateCacheOptions } from './decoder-model.js';

/**
 * An empty `KvCache` for a decoder: one entry per layer, bounded by `maxLength` positions (default
 * `maxPositionEmbeddings`). A model with learned positions (GPT-2) takes at most its table's length;
 * a rotary model may take more (rotary positions have no table), up to 2²⁴.
 *
 * @example
 * const cache = createDecoderCache(model.config, { maxLength: 256 }, 'LlamaModel.createCache');
 */
export function createDecoderCache(config: DecoderConfig, options: CreateCacheOptions, caller: string): KvCache {
  const { maxLength } = checkOptionKeys(checkObject(options, { caller, argument: 'options', expected: 'an object { maxLength? }' }), ['maxLength'], caller);
  const limit = config.rotary === undefined ? config.maxPositionEmbeddings : 2 ** 24;
  const length = maxLength === undefined ? config.maxPositionEmbeddings : checkInteger(maxLength, { caller, argument: 'maxLength', min: 1, max: limit });
  return new KvCache({ numLayers: config.numHiddenLayers, maxLength: length });
}
