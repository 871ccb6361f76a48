import type { Tensor } from '@tensorflow/tfjs-core';

const dataKeys = new WeakMap<object, number>();
let nextDataKey = 0;

/**
 * A number for the values of `x`: its data id (shared by reshapes of one tensor; a Variable's
 * `assign` gives it a new one), numbered once. Never reused, so equal keys mean equal values.
 * The kernels key what they keep between calls by it (an input's quantized rows, a weight's
 * packed panels).
 *
 * @example
 * dataKey(x) === dataKey(reshape(x, [-1])); // true: the same values
 */
export function dataKey(x: Tensor): number {
  return objectKey(x.dataId as object);
}

/**
 * A number for an object (a tensor's data id, an int8 weight's values), given once and never
 * reused: what the kernels key their kept data by, while the object itself may be collected.
 *
 * @example
 * objectKey(weight.values) === objectKey(weight.values); // true
 */
export function objectKey(object: object): number {
  let key = dataKeys.get(object);
  if (key === undefined) dataKeys.set(object, (key = nextDataKey++));
  return key;
}
