import type { Reference64 } from '@attnkit/kernels';

/**
 * The conformance tolerances of a reference: at float32 its rounding bound; at float16 (a backend
 * storing tensors in half precision) that plus the output's rounding to float16 (2⁻¹¹ relative).
 * The inputs are exact in float16 (`halfExactValues`), so they add nothing.
 *
 * @example
 * toleranceOf({ values: Float64Array.of(2), float32Bound: 1e-7 }); // { 32: 1e-7, 16: 1e-7 + 2 · 2⁻¹¹ }
 */
export function toleranceOf(reference: Reference64): { readonly 32: number; readonly 16: number } {
  const largest = reference.values.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
  return { 32: reference.float32Bound, 16: reference.float32Bound + largest * 2 ** -11 };
}
