#pragma once
// exp on f32x4 for the kernels that need it (fused-attention.c's softmax, silu-mul.h's SiLU in the
// tfjs fills and, built with EXP_NO_BITSELECT, in the int8 modules between a SwiGLU block's products).
#include <stdint.h>
#include <wasm_simd128.h>

// exp(x), f32x4, Cephes' expf: n = round(x·log₂e), r = x − n·ln2 (two parts), a degree-6
// polynomial, times 2ⁿ built in the exponent bits. Below −87.33: 0 (−∞ too); above 88.72: +∞;
// NaN stays NaN. Within 2 ulp of the correctly rounded exp on the range the softmax uses.
static inline v128_t exp4(v128_t x) {
  const v128_t hi = wasm_f32x4_splat(88.7228394f), lo = wasm_f32x4_splat(-87.3365448f);
  v128_t c = wasm_f32x4_min(wasm_f32x4_max(x, lo), hi); // NaN handled below
  v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(c, wasm_f32x4_splat(1.44269504088896341f)));
  v128_t r = wasm_f32x4_sub(c, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(5.0000001201e-1f));
  v128_t y = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, r), r), r), wasm_f32x4_splat(1.0f));
  // 2ⁿ for n in [-126, 128]: n = 128 (x near 88.7) as 2 · 2¹²⁷
  v128_t ni = wasm_i32x4_trunc_sat_f32x4(n);
#ifndef EXP_NO_BITSELECT
  v128_t big = wasm_i32x4_gt(ni, wasm_i32x4_splat(127));
  ni = wasm_i32x4_sub(ni, wasm_v128_and(big, wasm_i32x4_splat(1)));
  y = wasm_f32x4_mul(y, wasm_v128_bitselect(wasm_f32x4_splat(2.0f), wasm_f32x4_splat(1.0f), big));
  y = wasm_f32x4_mul(y, (v128_t)wasm_i32x4_shl(wasm_i32x4_add(ni, wasm_i32x4_splat(127)), 23));
  y = wasm_v128_bitselect(wasm_f32x4_splat(0.0f), y, wasm_f32x4_lt(x, lo));
  y = wasm_v128_bitselect(wasm_f32x4_splat(__builtin_inff()), y, wasm_f32x4_gt(x, hi));
  return wasm_v128_bitselect(x, y, wasm_f32x4_ne(x, x)); // NaN in, NaN out
#else
  // The same values without v128.bitselect, which clang also makes of a mask's and/andnot (the
  // int8 modules, where it is the relaxed dot-add's placeholder): no mask is built. n > 127 as
  // clamp(n − 127, 0, 1); below lo a product by 1 − clamp(⌈lo − x⌉, 0, 1) = 0 (y is finite and > 0); above hi, + (x − hi)·2¹²⁷·2¹²⁷
  // (+∞ for x > hi, the smallest such x − hi being 2⁻¹⁷; +0 else); a NaN x through x − hi.
  v128_t one = wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_sub(ni, wasm_i32x4_splat(127)), wasm_i32x4_splat(0)), wasm_i32x4_splat(1));
  ni = wasm_i32x4_sub(ni, one);
  y = wasm_f32x4_mul(y, wasm_f32x4_add(wasm_f32x4_splat(1.0f), wasm_f32x4_convert_i32x4(one)));
  y = wasm_f32x4_mul(y, (v128_t)wasm_i32x4_shl(wasm_i32x4_add(ni, wasm_i32x4_splat(127)), 23));
  v128_t keep = wasm_f32x4_sub(wasm_f32x4_splat(1.0f), wasm_f32x4_min(wasm_f32x4_max(wasm_f32x4_ceil(wasm_f32x4_sub(lo, x)), wasm_f32x4_splat(0.0f)), wasm_f32x4_splat(1.0f))); // 0 for x < lo, else 1
  y = wasm_f32x4_mul(y, keep);
  v128_t over = wasm_f32x4_max(wasm_f32x4_sub(x, hi), wasm_f32x4_splat(0.0f));
  const v128_t big = wasm_f32x4_splat(0x1p127f);
  return wasm_f32x4_add(y, wasm_f32x4_mul(wasm_f32x4_mul(over, big), big));
#endif
}
