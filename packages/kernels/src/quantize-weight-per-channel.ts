import type { Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkTensor, describeValue, InvalidArgumentError, isTensorLike } from '@attnkit/errors';
import type { Int8Weight } from './int8-weight.js';
import { quantizeRows } from './quantize-rows.js';

/** A float weight in PyTorch `nn.Linear` layout: `values` `[outFeatures, inFeatures]`, row-major. */
export interface FloatWeight {
  readonly values: Float32Array | readonly number[];
  readonly inFeatures: number;
  readonly outFeatures: number;
}

/**
 * Quantizes a weight matrix to int8 per output channel, symmetrically:
 * `scales[m] = max_k |W[k, m]| / 127` (float32), `values[m, k] = round(W[k, m] / scales[m])`
 * (half away from zero, in [-127, 127]). An all-zero channel gets scale 0 and zeros. Non-finite
 * weights are refused with a typed error. The result is the weight `int8MatMul` takes.
 *
 * Shapes: a tensor `[K, M]` float32 (in × out: tfjs layers' Dense kernel), or
 * `{ values: [M, K], inFeatures: K, outFeatures: M }` (out × in: PyTorch `nn.Linear.weight`,
 * attnkit `Linear.weight`) → `Int8Weight { values: int8 [M, K], scales: [M] }`.
 *
 * @example
 * const weight = quantizeWeightPerChannel(tf.randomNormal([384, 1536])); // [K, M] = [384, 1536]
 * weight.values.length; // 1536 * 384, one row of K per output channel
 */
export function quantizeWeightPerChannel(weight: Tensor | FloatWeight): Int8Weight {
  const caller = 'quantizeWeightPerChannel';
  if (isTensorLike(weight)) {
    const tensor = checkTensor(weight, { caller, argument: 'weight', dtype: 'float32', rank: 2, shape: '[K, M] (in × out)' });
    const [inFeatures, outFeatures] = tensor.shape as [number, number];
    const data = tensor.dataSync() as Float32Array; // [K, M]
    const transposed = new Float32Array(inFeatures * outFeatures); // [K, M] -> [M, K]
    for (let k = 0; k < inFeatures; k++) for (let m = 0; m < outFeatures; m++) transposed[m * inFeatures + k] = data[k * outFeatures + m] as number;
    return { ...quantizeRows(transposed, outFeatures, inFeatures, 127, caller, 'weight'), inFeatures, outFeatures };
  }
  if (typeof weight !== 'object' || weight === null) {
    throw new InvalidArgumentError({ caller, argument: 'weight', expected: 'a float32 tensor [K, M] or { values: [M, K], inFeatures: K, outFeatures: M }', received: describeValue(weight) });
  }
  const inFeatures = checkInteger(weight.inFeatures, { caller, argument: 'inFeatures', min: 0 });
  const outFeatures = checkInteger(weight.outFeatures, { caller, argument: 'outFeatures', min: 0 });
  const { values } = weight;
  if (!(values instanceof Float32Array || Array.isArray(values)) || values.length !== inFeatures * outFeatures) {
    throw new InvalidArgumentError({ caller, argument: 'values', expected: `a Float32Array or number[] [M, K] of length outFeatures·inFeatures = ${outFeatures}·${inFeatures} = ${outFeatures * inFeatures}`, received: describeValue(values) });
  }
  return { ...quantizeRows(values, outFeatures, inFeatures, 127, caller, 'values'), inFeatures, outFeatures };
}
