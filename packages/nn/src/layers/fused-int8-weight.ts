import { freezeInt8Weight, type Int8Weight } from '@attnkit/kernels';
import { Int8Linear } from './int8-linear.js';

/** The fused weight of a group, kept for its first layer with the weights it was made from. */
const fusedWeights = new WeakMap<Int8Linear, { readonly parts: readonly Int8Weight[]; readonly fused: Int8Weight }>();

/**
 * The weights of `layers` (the same input width) stacked into one frozen int8 weight
 * `[Σ out, in]`: rows in the order of `layers`, each with its own scale, so one product gives
 * `concat(layer.forward(x) for each layer, -1)` bit for bit. Made once per group and kept for its
 * first layer: an `Int8Linear`'s weight is frozen, so the stack never goes stale (a layer given
 * another weight object makes a new stack).
 */
export function fusedInt8Weight(layers: readonly Int8Linear[]): Int8Weight {
  const parts = layers.map((layer) => layer.weight);
  const found = fusedWeights.get(layers[0]!);
  if (found !== undefined && found.parts.length === parts.length && found.parts.every((w, i) => w === parts[i])) return found.fused;
  const inFeatures = parts[0]!.inFeatures;
  const outFeatures = parts.reduce((n, w) => n + w.outFeatures, 0);
  const values = new Int8Array(outFeatures * inFeatures);
  const scales = new Float32Array(outFeatures);
  let row = 0;
  for (const w of parts) {
    values.set(w.values, row * inFeatures); // a copy of the frozen bytes, read once
    scales.set(w.scales, row);
    row += w.outFeatures;
  }
  const fused = freezeInt8Weight({ values, scales, inFeatures, outFeatures });
  fusedWeights.set(layers[0]!, { parts, fused });
  return fused;
}

/**
 * Whether `layers` can run as one int8 product ({@link fusedInt8Weight}): live `Int8Linear`s in
 * eval mode of the same input width and kernel, with a bias each or none at all.
 */
export function int8Fusable(layers: readonly unknown[]): layers is readonly Int8Linear[] {
  if (layers.length === 0 || !layers.every((l) => l instanceof Int8Linear && !l.isDisposed && !l.training)) return false;
  const [first, ...rest] = layers as readonly Int8Linear[];
  return rest.every((l) => l.inFeatures === first!.inFeatures && l.options.kernel === first!.options.kernel && (l.bias === undefined) === (first!.bias === undefined));
}
