import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/**
 * A weight matrix quantized per output channel (symmetric int8), as `quantizeWeightPerChannel`
 * makes it: `values` int8 `[M, K]` (one row per output channel, contiguous in K — PyTorch's
 * `[out, in]`), `scales` float32 `[M]`, so `W[k, m] ≈ values[m, k] · scales[m]`.
 */
export interface Int8Weight {
  readonly values: Int8Array;
  readonly scales: Float32Array;
  /** K, the input width. */
  readonly inFeatures: number;
  /** M, the output width. */
  readonly outFeatures: number;
}

/**
 * Checks that `weight` is a consistent {@link Int8Weight} (typed arrays of the sizes its widths
 * say) or throws `InvalidArgumentError` naming what is off.
 *
 * @example
 * checkInt8Weight(quantizeWeightPerChannel(w), 'int8MatMul', 'weight');
 */
export function checkInt8Weight(weight: unknown, caller: string, argument: string): Int8Weight {
  const expected = 'an Int8Weight { values: Int8Array [M, K], scales: Float32Array [M], inFeatures: K, outFeatures: M } (quantizeWeightPerChannel makes one)';
  if (typeof weight !== 'object' || weight === null) throw new InvalidArgumentError({ caller, argument, expected, received: describeValue(weight) });
  const { values, scales, inFeatures, outFeatures } = weight as Partial<Int8Weight>;
  const widths = Number.isSafeInteger(inFeatures) && Number.isSafeInteger(outFeatures) && (inFeatures as number) >= 0 && (outFeatures as number) >= 0;
  if (!widths || !(values instanceof Int8Array) || !(scales instanceof Float32Array)) {
    const received = `{ values: ${describeValue(values)}, scales: ${describeValue(scales)}, inFeatures: ${describeValue(inFeatures)}, outFeatures: ${describeValue(outFeatures)} }`;
    throw new InvalidArgumentError({ caller, argument, expected, received });
  }
  const [k, m] = [inFeatures as number, outFeatures as number];
  if (values.length !== m * k || scales.length !== m) {
    throw new InvalidArgumentError({ caller, argument, expected: `values of length M·K = ${m}·${k} = ${m * k} and scales of length M = ${m}`, received: `values of length ${values.length} and scales of length ${scales.length}` });
  }
  return weight as Int8Weight;
}
