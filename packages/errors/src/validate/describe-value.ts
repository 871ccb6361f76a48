import type { Tensor } from '@tensorflow/tfjs-core';

function isTensorLike(value: unknown): value is Tensor {
  return typeof value === 'object' && value !== null && 'dataId' in value && 'shape' in value && 'dtype' in value;
}

/**
 * Describes any value the way error messages print what was received: tensors by dtype, rank
 * and shape (`'float32 tensor of rank 2 [2, 5]'`), everything else by type and value.
 *
 * @example
 * describeValue(tf.zeros([2, 5])); // 'float32 tensor of rank 2 [2, 5]'
 * describeValue([1, 2]);           // 'array [1,2]'
 */
export function describeValue(value: unknown): string {
  if (isTensorLike(value)) {
    return value.isDisposed
      ? `a disposed ${value.dtype} tensor [${value.shape.join(', ')}]`
      : `${value.dtype} tensor of rank ${value.rank} [${value.shape.join(', ')}]`;
  }
  if (Array.isArray(value)) return `array ${JSON.stringify(value).slice(0, 60)}`;
  if (typeof value === 'number') return `number ${value}`;
  if (typeof value === 'string') return `string '${value.slice(0, 40)}'`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  return typeof value === 'object' ? `${value.constructor?.name ?? 'object'}` : typeof value;
}

/** `[2, 5]` for a shape, as every message in attnkit writes shapes. */
export function formatShape(shape: readonly number[]): string {
  if (!Array.isArray(shape)) return describeValue(shape); // for messages: never throws
  return `[${shape.join(', ')}]`;
}

export { isTensorLike };
