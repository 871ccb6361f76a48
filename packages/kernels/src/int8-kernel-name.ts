/**
 * The int8 GEMM kernels, fastest first: `'relaxed-simd'` (wasm relaxed SIMD, 7-bit activations),
 * `'simd'` (wasm SIMD128, 8-bit activations) and `'js'` (plain JavaScript integers, same results
 * as `'simd'`).
 *
 * @example
 * INT8_KERNEL_NAMES.includes('simd'); // true
 */
export const INT8_KERNEL_NAMES = ['relaxed-simd', 'simd', 'js'] as const;

/** One of {@link INT8_KERNEL_NAMES}. */
export type Int8KernelName = (typeof INT8_KERNEL_NAMES)[number];
