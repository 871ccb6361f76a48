import { checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { StoredTensor } from '../read-checkpoint.js';

/**
 * A `Linear`'s weight stored int8 per output channel: `values` int8 `[out, in]` row-major, `scales`
 * `[out]`, `weight[m, k] ≈ values[m, k] · scales[m]` — the shape of `@attnkit/kernels`' `Int8Weight`
 * (what `Int8Linear` holds), as plain data.
 */
export interface StoredInt8Weight {
  readonly values: Int8Array;
  readonly scales: Float32Array;
  readonly inFeatures: number;
  readonly outFeatures: number;
}

/** What {@link readInt8WeightTensors} finds in a checkpoint. */
export interface Int8WeightTensors {
  /** Stored weight name (`encoder.layer.0.output.dense.weight`) → its int8 values and scales. */
  readonly weights: Map<string, StoredInt8Weight>;
  /** The stored names of the scales (`….weight_scale`), which are no parameters. */
  readonly scales: Set<string>;
  /** Everything that does not fit the layout, one line per tensor; empty for a good checkpoint. */
  readonly problems: string[];
}

const FLOAT_DTYPES: ReadonlySet<string> = new Set(['F32', 'F16', 'BF16']);
const limited = (name: string) => (name.length > 80 ? `${name.slice(0, 80)}…` : name);

/**
 * The tensors of a `Linear`'s int8 weight in a checkpoint, in the layout of `compressed-tensors`
 * (`int-quantized`, channel strategy): `<linear>.weight` I8 `[out, in]` and
 * `<linear>.weight_scale` F32 `[out, 1]`, so that `weight[m, k] ≈ values[m, k] · scale[m]` — the
 * {@link StoredInt8Weight} `quantizeWeightPerChannel` makes, stored as it is.
 *
 * @example
 * writeSafetensors({ ...int8WeightTensors('pooler.dense.weight', Int8Linear.fromLinear(pooler).weight) });
 * // 'pooler.dense.weight': I8 [E, E], 'pooler.dense.weight_scale': F32 [E, 1]
 */
export function int8WeightTensors(name: string, weight: StoredInt8Weight): Record<string, { readonly shape: number[]; readonly values: Float32Array | Int8Array }> {
  const caller = 'int8WeightTensors';
  if (typeof name !== 'string' || !name.endsWith('.weight')) throw new InvalidArgumentError({ caller, argument: 'name', expected: "the stored name of a Linear's weight ('<linear>.weight')", received: describeValue(name) });
  const { values, scales, inFeatures, outFeatures } = checkObject(weight, { caller, argument: 'weight', expected: 'an int8 weight { values, scales, inFeatures, outFeatures }' });
  if (!Number.isInteger(inFeatures) || !Number.isInteger(outFeatures) || inFeatures < 1 || outFeatures < 1 || !(values instanceof Int8Array) || values.length !== inFeatures * outFeatures || !(scales instanceof Float32Array) || scales.length !== outFeatures) {
    throw new InvalidArgumentError({ caller, argument: 'weight', expected: 'an int8 weight: values Int8Array [out · in], scales Float32Array [out], inFeatures and outFeatures positive integers', received: describeValue(weight) });
  }
  return {
    [name]: { shape: [weight.outFeatures, weight.inFeatures], values: weight.values }, // [out, in]
    [`${name}_scale`]: { shape: [weight.outFeatures, 1], values: weight.scales }, // [out, 1]
  };
}

/**
 * Finds the int8 weights of a checkpoint read with `keepInt8: true` (see {@link int8WeightTensors}
 * for the layout) and checks each against its scale. Every tensor that does not fit is one line of
 * `problems`, naming it: an I8 tensor that is not a `<module>.weight` of rank 2, an I8 weight
 * without a scale, a scale that is not float (F32, F16 or BF16) or not `[out, 1]`, a scale that is
 * not finite, negative, or zero for a row that is not all zeros (`quantizeWeightPerChannel` gives
 * an all-zero row scale 0), and a scale whose weight is absent or not I8.
 *
 * @example
 * const { weights, scales, problems } = readInt8WeightTensors(readSafetensors(bytes, { keepInt8: true }).tensors);
 * weights.get('pooler.dense.weight'); // { values: Int8Array [E · E], scales: Float32Array [E], inFeatures: E, outFeatures: E }
 */
export function readInt8WeightTensors(tensors: ReadonlyMap<string, StoredTensor>): Int8WeightTensors {
  if (!(tensors instanceof Map)) throw new InvalidArgumentError({ caller: 'readInt8WeightTensors', argument: 'tensors', expected: 'a Map of stored name → tensor (readCheckpoint(files).tensors)', received: describeValue(tensors) });
  const weights = new Map<string, StoredInt8Weight>();
  const scales = new Set<string>();
  const problems: string[] = [];
  for (const [name, entry] of tensors) {
    if (name.endsWith('.weight_scale')) {
      scales.add(name);
      const weight = tensors.get(name.slice(0, -'_scale'.length));
      if (weight?.dtype !== 'I8') problems.push(`'${limited(name)}' scales '${limited(name.slice(0, -'_scale'.length))}', which is ${weight === undefined ? 'absent' : `${weight.dtype}, not I8`}`);
      continue;
    }
    if (entry.dtype !== 'I8') continue;
    const scaleName = `${name}_scale`;
    if (!name.endsWith('.weight') || entry.shape.length !== 2) {
      problems.push(`'${limited(name)}' is I8 [${entry.shape.join(', ')}], not the weight of a Linear (<module>.weight [out, in])`);
      continue;
    }
    const [outFeatures, inFeatures] = entry.shape as [number, number];
    const scale = tensors.get(scaleName);
    if (scale === undefined) {
      problems.push(`'${limited(name)}' is I8 but '${limited(scaleName)}' is missing (F32 [${outFeatures}, 1], one scale per output row)`);
      continue;
    }
    if (!FLOAT_DTYPES.has(scale.dtype) || scale.shape.length !== 2 || scale.shape[0] !== outFeatures || scale.shape[1] !== 1) {
      problems.push(`'${limited(scaleName)}' is ${scale.dtype} [${scale.shape.join(', ')}]; expected F32 [${outFeatures}, 1] (one scale per output row of '${limited(name)}')`);
      continue;
    }
    const values = entry.values as Int8Array;
    const scaleValues = scale.values as Float32Array;
    const bad = scaleValues.findIndex((s, m) => !Number.isFinite(s) || s < 0 || (s === 0 && values.subarray(m * inFeatures, (m + 1) * inFeatures).some((v) => v !== 0)));
    if (bad >= 0) {
      problems.push(`'${limited(scaleName)}' row ${bad} is ${scaleValues[bad]}; scales must be finite and positive (0 only for a row of zeros)`);
      continue;
    }
    weights.set(name, { values, scales: scaleValues, inFeatures, outFeatures });
  }
  return { weights, scales, problems };
}
