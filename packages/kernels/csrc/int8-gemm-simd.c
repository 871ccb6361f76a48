// Plain wasm SIMD (128-bit) int8 GEMM: int8 sign-extended to int16 once, while packing, then
// i32x4.dot_i16x8_s (8 products per instruction, pairs summed exactly into int32 lanes).
// Exact for any int8 values while |Σ| < 2³¹ (K ≤ 133 144 at ±127).
#define KSTEP 8
typedef short elem_t;
#include <stdint.h>
#include <wasm_simd128.h>
#define DOT(acc, x, w) acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(x, w))

static void pack_a(int16_t *dst, const int8_t *src, int32_t n, int32_t np, int32_t k, int32_t kp);
static void pack_b(int16_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp);
#include "int8-gemm.h"

// [rows, k] int8 -> zero-padded [rows_padded, kp] int16
static void widen(int16_t *dst, const int8_t *src, int32_t rows, int32_t rows_padded, int32_t k, int32_t kp) {
  for (int32_t r = 0; r < rows_padded; r++) {
    int16_t *d = dst + r * kp;
    int32_t c = 0;
    if (r < rows) {
      const int8_t *s = src + r * k;
      for (; c + 16 <= k; c += 16) {
        v128_t v = wasm_v128_load(s + c);
        wasm_v128_store(d + c, wasm_i16x8_extend_low_i8x16(v));
        wasm_v128_store(d + c + 8, wasm_i16x8_extend_high_i8x16(v));
      }
      for (; c < k; c++) d[c] = s[c];
    }
    for (; c < kp; c++) d[c] = 0;
  }
}
static void pack_a(int16_t *dst, const int8_t *src, int32_t n, int32_t np, int32_t k, int32_t kp) { widen(dst, src, n, np, k, kp); }
static void pack_b(int16_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp) {
  widen(dst, src, m, mp, k, kp);
  for (int32_t j = 0; j < mp; j++) corr[j] = 0;
}
