#pragma once
// SwiGLU's product: out[r, j] = silu(x[r, j]) · x[r, F + j] for x [rows, 2F] (the gate's F columns,
// then the up projection's), out [rows, F]; silu(g) = g / (1 + exp(−g)), exp4 of exp.h (within 2
// ulp; +Infinity past 88.72, so silu of a gate below −88.72 is −0 where float32 has no closer value).
#include <stdint.h>
#include <wasm_simd128.h>
#include "exp.h"

static inline v128_t silu_f32x4(v128_t g) {
  return wasm_f32x4_div(g, wasm_f32x4_add(wasm_f32x4_splat(1.0f), exp4(wasm_f32x4_neg(g))));
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
