#pragma once
// out[i] = (x[i] − mean) / √(var + eps) · gamma + beta over rows of `width` floats, as nn.LayerNorm
// (biased variance, eps inside the square root): the one source of attnkit's LayerNorm. The mean
// over 4-lane partial sums plus a scalar tail, then the biased variance in a second pass over the
// row, then the output. The tfjs LayerNorm kernel (tfjs-fills.c) and the GEMMs' residual LayerNorm
// epilogue (residual-layer-norm.h) both run it, so a fused product + residual + LayerNorm equals
// the unfused ops bit for bit (the modules are built with -ffp-contract=off). `out` may be `x`.
#include <stdint.h>
#include <wasm_simd128.h>

static inline float hsum4(v128_t v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) + (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

static void layer_norm_rows(const float *x_rows, const float *gamma, const float *beta, float *out_rows, int32_t row_begin, int32_t row_end, int32_t width, float eps) {
  int32_t vec = width & ~3;
  for (int32_t row = row_begin; row < row_end; row++) {
    const float *x = x_rows + (int64_t)row * width;
    float *out = out_rows + (int64_t)row * width;
    v128_t acc = wasm_f32x4_splat(0.0f);
    float sum = 0.0f;
    int32_t i = 0;
    for (; i < vec; i += 4) acc = wasm_f32x4_add(acc, wasm_v128_load(x + i));
    for (; i < width; i++) sum = sum + x[i];
    float mean = (hsum4(acc) + sum) / (float)width;
    v128_t mean_v = wasm_f32x4_splat(mean);
    acc = wasm_f32x4_splat(0.0f);
    sum = 0.0f;
    for (i = 0; i < vec; i += 4) {
      v128_t d = wasm_f32x4_sub(wasm_v128_load(x + i), mean_v);
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(d, d));
    }
    for (; i < width; i++) {
      float d = x[i] - mean;
      sum = sum + d * d;
    }
    float inv = 1.0f / __builtin_sqrtf((hsum4(acc) + sum) / (float)width + eps);
    v128_t inv_v = wasm_f32x4_splat(inv);
    for (i = 0; i < vec; i += 4) {
      v128_t y = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(x + i), mean_v), inv_v), wasm_v128_load(gamma + i));
      wasm_v128_store(out + i, wasm_f32x4_add(y, wasm_v128_load(beta + i)));
    }
    for (; i < width; i++) out[i] = ((x[i] - mean) * inv) * gamma[i] + beta[i];
  }
}
