#pragma once
// Rotary position embeddings (transformers' apply_rotary_pos_emb, the rotate_half convention) read
// from the heads where a projection leaves them and written where attention reads them: x [B, T, H, D]
// → out [B, H, T, D], out = x · cos + rotate_half(x) · sin over the first R dims of each head
// (rotate_half(x) = [−x₂, x₁] over the halves of R), the other D − R passed through; cos, sin
// [B, T, R]. The products and the sum in the order of the tfjs ops it replaces (transpose, then
// add(mul(x, cos), mul(rotate_half(x), sin))), so the same float32 numbers.
#include <stdint.h>
#include <wasm_simd128.h>

static void rotary_heads(const float *x, const float *cos, const float *sin, float *out, int32_t batch, int32_t length, int32_t heads, int32_t dim, int32_t rdim) {
  int32_t half = rdim / 2;
  for (int32_t b = 0; b < batch; b++) {
    for (int32_t t = 0; t < length; t++) {
      const float *c = cos + ((int64_t)b * length + t) * rdim, *s = sin + ((int64_t)b * length + t) * rdim;
      for (int32_t h = 0; h < heads; h++) {
        const float *xi = x + (((int64_t)b * length + t) * heads + h) * dim;
        float *o = out + (((int64_t)b * heads + h) * length + t) * dim;
        int32_t i = 0;
        if ((half & 3) == 0) {
          for (; i < half; i += 4) {
            v128_t x1 = wasm_v128_load(xi + i), x2 = wasm_v128_load(xi + half + i);
            v128_t c1 = wasm_v128_load(c + i), s1 = wasm_v128_load(s + i), c2 = wasm_v128_load(c + half + i), s2 = wasm_v128_load(s + half + i);
            wasm_v128_store(o + i, wasm_f32x4_add(wasm_f32x4_mul(x1, c1), wasm_f32x4_mul(wasm_f32x4_neg(x2), s1)));
            wasm_v128_store(o + half + i, wasm_f32x4_add(wasm_f32x4_mul(x2, c2), wasm_f32x4_mul(x1, s2)));
          }
        } else {
          for (; i < half; i++) {
            float x1 = xi[i], x2 = xi[half + i];
            o[i] = x1 * c[i] + (-x2) * s[i];
            o[half + i] = x2 * c[half + i] + x1 * s[half + i];
          }
        }
        for (i = rdim; i < dim; i++) o[i] = xi[i];
      }
    }
  }
}
