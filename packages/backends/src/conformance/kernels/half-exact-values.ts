import { seededValues } from '../seeded-values.js';

/**
 * Seeded values in `[low, high]` rounded to a grid of 11 significant bits, so float16 holds every
 * one of them exactly (as float32 does): a backend that stores tensors in half precision still
 * sees bit-identical inputs, and only its output storage adds error.
 * Shapes: → `[count]` float32.
 *
 * @example
 * halfExactValues(1, 4, -1, 1); // Float32Array(4), each a multiple of 2⁻¹⁰ in [-1, 1]
 */
export function halfExactValues(seed: number, count: number, low: number, high: number): Float32Array {
  const step = 2 ** (Math.ceil(Math.log2(Math.max(Math.abs(low), Math.abs(high)))) - 10); // 2¹⁰ steps up to the largest magnitude
  return seededValues(seed, count, low, high).map((v) => Math.round(v / step) * step);
}
