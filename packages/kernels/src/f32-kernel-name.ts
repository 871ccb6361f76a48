/**
 * The float32 GEMM kernels, fastest first: `'relaxed-simd'` (wasm relaxed SIMD's multiply-add,
 * fused where the CPU has FMA) and `'simd'` (wasm SIMD128, a multiply then an add: the numbers of
 * tfjs-wasm's matMul, bit for bit).
 *
 * @example
 * F32_KERNEL_NAMES.includes('simd'); // true
 */
export const F32_KERNEL_NAMES = ['relaxed-simd', 'simd'] as const;

/** One of {@link F32_KERNEL_NAMES}. */
export type F32KernelName = (typeof F32_KERNEL_NAMES)[number];
