// Plain wasm SIMD (128-bit) int8 GEMM: int8 sign-extended to int16 once, while packing, then
// i32x4.dot_i16x8_s (8 products per instruction, pairs summed exactly into int32 lanes).
// Exact for any int8 values while |Σ| < 2³¹ (K ≤ 133 144 at ±127).
#define KSTEP 8
typedef short elem_t;
#include <stdint.h>
#include <wasm_simd128.h>
#define DOT(acc, x, w) acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(x, w))

static void pack_a(int16_t *dst, const int8_t *src, int32_t n, int32_t np, int32_t k, int32_t kp, int32_t r_begin, int32_t r_end);
static void pack_b(int16_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp);
#include "int8-gemm.h"

// [rows, k] int8 -> zero-padded [rows_padded, kp] int16, interleaved by blocks of `block` rows
static void widen(int16_t *dst, const int8_t *src, int32_t rows, int32_t r_begin, int32_t r_end, int32_t k, int32_t kp, int32_t block) {
  for (int32_t r = r_begin; r < r_end; r++) {
    const int8_t *s = src + r * k;
    for (int32_t p = 0; p < kp; p += KSTEP) {
      int16_t *d = dst + panel_index(r, p, kp, block);
      if (r < rows && p + KSTEP <= k) {
        wasm_v128_store(d, wasm_i16x8_load8x8(s + p));
      } else {
        for (int32_t e = 0; e < KSTEP; e++) d[e] = r < rows && p + e < k ? s[p + e] : 0;
      }
    }
  }
}
static void pack_a(int16_t *dst, const int8_t *src, int32_t n, int32_t np, int32_t k, int32_t kp, int32_t r_begin, int32_t r_end) { (void)np; widen(dst, src, n, r_begin, r_end, k, kp, MR); }
static void pack_b(int16_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp) {
  widen(dst, src, m, 0, mp, k, kp, NR);
  for (int32_t j = 0; j < mp; j++) corr[j] = 0;
}
