import { checkInt8Weight, type Int8Weight } from './int8-weight.js';

/** A frozen weight's own arrays, which nothing outside this package can reach. */
const ownArrays = new WeakMap<object, { readonly values: Int8Array; readonly scales: Float32Array; readonly frozen: true }>();

/**
 * An `Int8Weight` that can no longer change: a private copy of `weight`'s values and scales, whose
 * `values` and `scales` properties read fresh copies. `int8MatMul` packs it once and from then on
 * uses its kept panel without copying and comparing its bytes before each product (what a plain
 * `Int8Weight` needs, since its arrays may be changed in place: for a one-row product, as in
 * decoding, that copy and comparison read twice the bytes of the product itself). `Int8Linear`
 * keeps its weight this way. Shapes as the weight's: values int8 `[M, K]`, scales `[M]`.
 *
 * @example
 * const weight = freezeInt8Weight(quantizeWeightPerChannel({ values, inFeatures: 576, outFeatures: 1536 }));
 * int8MatMul(x, weight); // [1, 1, 576] -> [1, 1, 1536]; packed at the first product only
 */
export function freezeInt8Weight(weight: Int8Weight): Int8Weight {
  const checked = checkInt8Weight(weight, 'freezeInt8Weight', 'weight');
  if (ownArrays.has(checked)) return checked; // frozen already
  const own = { values: checked.values.slice(), scales: checked.scales.slice(), frozen: true } as const;
  const frozen: Int8Weight = Object.freeze({
    get values() { return own.values.slice(); },
    get scales() { return own.scales.slice(); },
    inFeatures: checked.inFeatures,
    outFeatures: checked.outFeatures,
  });
  ownArrays.set(frozen, own);
  return frozen;
}

/**
 * What a product reads of a checked weight: a frozen weight's own arrays (no copy; `frozen`
 * true), or the weight's arrays as they are.
 */
export function int8WeightArrays(weight: Int8Weight): { readonly values: Int8Array; readonly scales: Float32Array; readonly frozen: boolean } {
  const own = ownArrays.get(weight);
  return own ?? { values: weight.values, scales: weight.scales, frozen: false }; // a frozen weight's: one object, read on every product
}

/** Whether `weight` is a frozen weight of {@link freezeInt8Weight} (any value: false). */
export function isFrozenInt8Weight(weight: unknown): boolean {
  return typeof weight === 'object' && weight !== null && ownArrays.has(weight);
}
