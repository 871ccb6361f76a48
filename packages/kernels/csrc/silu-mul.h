#pragma once
// SwiGLU's product: out[r, j] = silu(x[r, j]) · x[r, F + j] for x [rows, 2F] (the gate's F columns,
// then the up projection's), out [rows, F]; silu(g) = g / (1 + exp(−g)). exp in float32: n = the
// nearest integer to x·log₂e, r = x − n·ln2 (in two parts), a degree-6 polynomial of r, times 2ⁿ
// by the exponent bits (in two halves), x clamped to [−87.3, 89] (within 2 ulp of expf; +Infinity
// past 88.72, so silu of a gate below −88.72 is −0 where float32 has no closer value).
#include <stdint.h>
#include <wasm_simd128.h>

static inline v128_t exp_f32x4(v128_t x) {
  x = wasm_f32x4_min(wasm_f32x4_max(x, wasm_f32x4_splat(-87.3f)), wasm_f32x4_splat(89.0f));
  v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)));
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(5.0000001201e-1f));
  p = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, r), r), r), wasm_f32x4_splat(1.0f));
  v128_t ni = wasm_i32x4_trunc_sat_f32x4(n), n1 = wasm_i32x4_shr(ni, 1), n2 = wasm_i32x4_sub(ni, n1); // 2ⁿ = 2^n1 · 2^n2, each a normal float for n in [−126, 128]
  v128_t s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, wasm_i32x4_splat(127)), 23), s2 = wasm_i32x4_shl(wasm_i32x4_add(n2, wasm_i32x4_splat(127)), 23);
  return wasm_f32x4_mul(wasm_f32x4_mul(p, s1), s2); // beyond 88.72: +Infinity, as expf
}

static inline v128_t silu_f32x4(v128_t g) {
  return wasm_f32x4_div(g, wasm_f32x4_add(wasm_f32x4_splat(1.0f), exp_f32x4(wasm_f32x4_neg(g))));
}

static void silu_mul_rows(const float *x_rows, float *out_rows, int32_t rows, int32_t width) {
  for (int32_t row = 0; row < rows; row++) {
    const float *gate = x_rows + (int64_t)row * 2 * width, *up = gate + width;
    float *out = out_rows + (int64_t)row * width;
    int32_t i = 0;
    for (; i + 4 <= width; i += 4) wasm_v128_store(out + i, wasm_f32x4_mul(silu_f32x4(wasm_v128_load(gate + i)), wasm_v128_load(up + i)));
    for (; i < width; i++) out[i] = wasm_f32x4_extract_lane(silu_f32x4(wasm_f32x4_splat(gate[i])), 0) * up[i];
  }
}
