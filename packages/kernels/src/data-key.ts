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
  const id = x.dataId as object;
  let key = dataKeys.get(id);
  if (key === undefined) dataKeys.set(id, (key = nextDataKey++));
  return key;
}
