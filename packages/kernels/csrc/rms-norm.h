#pragma once
// out[i] = (x[i] · 1/√(mean(x²) + eps)) · weight[i] over rows of `width` floats, as transformers'
// LlamaRMSNorm (and Mistral's, Qwen2's, Qwen3's) in float32: the mean of squares over 4-lane
// partial sums plus a scalar tail, then one pass for the output. `out` may be `x`.
#include <stdint.h>
#include <wasm_simd128.h>
#include "layer-norm.h" // hsum4

static void rms_norm_rows(const float *x_rows, const float *weight, float *out_rows, int32_t rows, int32_t width, float eps) {
  int32_t vec = width & ~3;
  for (int32_t row = 0; row < rows; row++) {
    const float *x = x_rows + (int64_t)row * width;
    float *out = out_rows + (int64_t)row * width;
    v128_t acc = wasm_f32x4_splat(0.0f);
    float sum = 0.0f;
    int32_t i = 0;
    for (; i < vec; i += 4) {
      v128_t v = wasm_v128_load(x + i);
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(v, v));
    }
    for (; i < width; i++) sum = sum + x[i] * x[i];
    float inv = 1.0f / __builtin_sqrtf((hsum4(acc) + sum) / (float)width + eps);
    v128_t inv_v = wasm_f32x4_splat(inv);
    for (i = 0; i < vec; i += 4) wasm_v128_store(out + i, wasm_f32x4_mul(wasm_f32x4_mul(wasm_v128_load(x + i), inv_v), wasm_v128_load(weight + i)));
    for (; i < width; i++) out[i] = (x[i] * inv) * weight[i];
  }
}
