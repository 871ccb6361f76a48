// out[i] = LayerNorm(out[i] + residual[i]) · gamma + beta over rows of `width` floats, in place:
// tfjs' Add (one float32 addition per element), then layer-norm.h's LayerNorm on the sums, so a
// fused product + residual + LayerNorm equals the unfused ops bit for bit.
#include <stdint.h>
#include <wasm_simd128.h>
#include "layer-norm.h"

static void residual_layer_norm_rows(float *out, const float *residual, const float *gamma, const float *beta, int32_t row_begin, int32_t row_end, int32_t width, float eps) {
  int32_t vec = width & ~3;
  for (int32_t row = row_begin; row < row_end; row++) {
    float *x = out + (int64_t)row * width;
    const float *res = residual + (int64_t)row * width;
    int32_t i = 0;
    for (; i < vec; i += 4) wasm_v128_store(x + i, wasm_f32x4_add(wasm_v128_load(x + i), wasm_v128_load(res + i)));
    for (; i < width; i++) x[i] = x[i] + res[i];
    layer_norm_rows(out, gamma, beta, out, row, row + 1, width, eps); // the row while it is in cache
  }
}
