import { reshape, tensor1d, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { Embedding } from '@attnkit/nn';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { relativePositionBuckets } from './relative-position-buckets.js';

/**
 * MPNet's score bias, shared by every layer: the bucket of each query-key distance looked up in
 * `encoder.relative_attention_bias` (`[buckets, H]`). `length` T → `[1, H, T, T]`.
 *
 * @example
 * const bias = mpnetPositionBias(model.encoder.get('relative_attention_bias'), 5, model.config); // [1, H, 5, 5]
 */
export function mpnetPositionBias(table: Embedding, length: number, config: EncoderConfig): Tensor {
  const caller = 'mpnetPositionBias';
  if (!(table instanceof Embedding)) throw new InvalidArgumentError({ caller, argument: 'table', expected: 'the relative_attention_bias Embedding [buckets, H]', received: describeValue(table) });
  checkInteger(length, { caller, argument: 'length', min: 1 });
  checkObject(config, { caller, argument: 'config', expected: 'the MPNet config' });
  return tidy(() => {
    const buckets = tensor1d(relativePositionBuckets(length, config.relativeAttentionNumBuckets), 'int32'); // [T * T]
    const values = table.forward(reshape(buckets, [length, length]), { idsChecked: true }); // [T, T, H]
    return reshape(transpose(values, [2, 0, 1]), [1, config.numAttentionHeads, length, length]); // [T, T, H] -> [1, H, T, T]
  });
}
