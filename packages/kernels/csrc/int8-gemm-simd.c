// Plain wasm SIMD (128-bit) int8 GEMM: A's int8 sign-extended to int16 once, while packing; B's
// panel kept as int8 and sign-extended by its load (v128.load8x8_s: one instruction, as a plain
// load, for half the bytes read); then i32x4.dot_i16x8_s (8 products per instruction, pairs summed
// exactly into int32 lanes).
// Exact for any int8 values while |Σ| < 2³¹ (K ≤ 133 144 at ±127).
#define KSTEP 8
typedef short elem_t;
typedef signed char belem_t;
#include <stdint.h>
#include <wasm_simd128.h>
#define LOAD_B(p) wasm_i16x8_load8x8(p)
#define DOT(acc, x, w) acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(x, w))

static void pack_a(int16_t *dst, const int8_t *src, int32_t n, int32_t np, int32_t k, int32_t kp, int32_t r_begin, int32_t r_end);
static void pack_b(int8_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp);
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
// [m, k] int8 -> zero-padded [mp, kp] int8, interleaved by blocks of NR rows (widened by LOAD_B)
static void pack_b(int8_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp) {
  for (int32_t r = 0; r < mp; r++) {
    const int8_t *s = src + r * k;
    for (int32_t p = 0; p < kp; p += KSTEP) {
      int8_t *d = dst + panel_index(r, p, kp, NR);
      if (r < m && p + KSTEP <= k) {
        wasm_v128_store64_lane(d, wasm_v128_load64_zero(s + p), 0);
      } else {
        for (int32_t e = 0; e < KSTEP; e++) d[e] = r < m && p + e < k ? s[p + e] : 0;
      }
    }
  }
  for (int32_t j = 0; j < mp; j++) corr[j] = 0;
}
