#pragma once
// The tanh approximation of GELU (PyTorch's gelu(approximate='tanh'), Hugging Face's gelu_new,
// gelu_pytorch_tanh and gelu_fast): 0.5 · x · (1 + tanh(u)), u = √(2/π) · (x + 0.044715 · x³),
// computed as the equal x / (1 + exp(−2u)) (0.5 · (1 + tanh(u)) is the logistic of 2u) with exp4 of
// exp.h: one exponential and one division, no cancellation near tanh(u) = −1 (far below zero the
// result is −0 where float32 has no closer value, as silu in silu-mul.h).
#include <stdint.h>
#include <wasm_simd128.h>
#include "exp.h"

static inline v128_t gelu_tanh_f32x4(v128_t x) {
  const v128_t cube = wasm_f32x4_mul(wasm_f32x4_mul(x, x), x);
  const v128_t u2 = wasm_f32x4_mul(wasm_f32x4_add(x, wasm_f32x4_mul(cube, wasm_f32x4_splat(0.044715f))), wasm_f32x4_splat(-1.5957691216057308f)); // −2u; 2·√(2/π)
  return wasm_f32x4_div(x, wasm_f32x4_add(wasm_f32x4_splat(1.0f), exp4(u2)));
}

static void gelu_tanh_values(const float *in, float *out, int32_t n) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) { // two vectors in flight: exp4's chain is latency-bound
    v128_t y0 = gelu_tanh_f32x4(wasm_v128_load(in + i)), y1 = gelu_tanh_f32x4(wasm_v128_load(in + i + 4));
    wasm_v128_store(out + i, y0), wasm_v128_store(out + i + 4, y1);
  }
  for (; i < n; i++) out[i] = wasm_f32x4_extract_lane(gelu_tanh_f32x4(wasm_f32x4_splat(in[i])), 0);
}
