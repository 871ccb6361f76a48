// Relaxed-SIMD int8 GEMM: i16x8.relaxed_dot_i8x16_i7x16_s (16 products per instruction, adjacent
// pairs summed into int16 lanes), widened by i32x4.extadd_pairwise_i16x8_s into int32 lanes.
//
// The instruction is exactly defined only while its second operand's bytes are 7-bit (0..127):
// a byte with the top bit set may be read as signed or unsigned, depending on the engine. So A
// (activations) must hold values in [-64, 63]; they are stored offset by +64 (0..127) and the
// offset's term, 64·Σₖ B[j, k], is subtracted per column: every result is the exact integer
// A·Bᵀ, on every engine. Pairs stay inside int16: |2 · 127 · 127| = 32 258 < 32 767.
//
// Why not the fused i32x4.relaxed_dot_i8x16_i7x16_add_s: V8 11.3 (Node 20) returns 2·dot and
// drops the accumulator; the two-instruction form is what it lowers to on x86 without VNNI anyway.
//
// clang 14 has no builtin for the instruction: the source writes a placeholder
// (i16x8.q15mulr_sat_s, same operand and result types, used nowhere else here) and
// scripts/build-wasm.mjs rewrites it in the disassembly to i16x8.relaxed_dot_i8x16_i7x16_s.
#define KSTEP 16
typedef signed char elem_t;
#include <stdint.h>
#include <wasm_simd128.h>
#ifndef DOT // int8-gemm-relaxed-dot-add.c defines its own (the fused instruction) and includes this file
#define RELAXED_DOT_I16(w, x) ((v128_t)__builtin_wasm_q15mulr_sat_s_i16x8((__i16x8)(w), (__i16x8)(x)))
#define DOT(acc, x, w) acc = wasm_i32x4_add(acc, wasm_i32x4_extadd_pairwise_i16x8(RELAXED_DOT_I16(w, x)))
#endif

static void pack_a(int8_t *dst, const int8_t *src, int32_t n, int32_t np, int32_t k, int32_t kp, int32_t r_begin, int32_t r_end);
static void pack_b(int8_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp);
#include "int8-gemm.h"

// [n, k] int8 in [-64, 63] (clamped) -> [np, kp] bytes in [0, 127], the padding 0, interleaved by blocks of MR rows
static void pack_a(int8_t *dst, const int8_t *src, int32_t n, int32_t np, int32_t k, int32_t kp, int32_t r_begin, int32_t r_end) {
  const v128_t lo = wasm_i8x16_splat(-64), hi = wasm_i8x16_splat(63), offset = wasm_i8x16_splat(64);
  (void)np;
  for (int32_t r = r_begin; r < r_end; r++) {
    const int8_t *s = src + r * k;
    for (int32_t p = 0; p < kp; p += KSTEP) {
      int8_t *d = dst + panel_index(r, p, kp, MR);
      if (r < n && p + KSTEP <= k) {
        v128_t v = wasm_i8x16_min(wasm_i8x16_max(wasm_v128_load(s + p), lo), hi);
        wasm_v128_store(d, wasm_i8x16_add(v, offset));
      } else {
        for (int32_t e = 0; e < KSTEP; e++) d[e] = r < n && p + e < k ? (int8_t)((s[p + e] < -64 ? -64 : s[p + e] > 63 ? 63 : s[p + e]) + 64) : 0;
      }
    }
  }
}

// [m, k] int8 -> [mp, kp] int8 (zero padding), interleaved by blocks of NR rows; corr[j] = -64 · Σₖ B[j, k]
static void pack_b(int8_t *dst, int32_t *corr, const int8_t *src, int32_t m, int32_t mp, int32_t k, int32_t kp) {
  for (int32_t r = 0; r < mp; r++) {
    const int8_t *s = src + r * k;
    v128_t sums = wasm_i32x4_splat(0);
    int32_t sum = 0;
    for (int32_t p = 0; p < kp; p += KSTEP) {
      int8_t *d = dst + panel_index(r, p, kp, NR);
      if (r < m && p + KSTEP <= k) {
        v128_t v = wasm_v128_load(s + p);
        wasm_v128_store(d, v);
        sums = wasm_i32x4_add(sums, wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_extadd_pairwise_i8x16(v)));
      } else {
        for (int32_t e = 0; e < KSTEP; e++) {
          d[e] = r < m && p + e < k ? s[p + e] : 0;
          sum += d[e];
        }
      }
    }
    sum += wasm_i32x4_extract_lane(sums, 0) + wasm_i32x4_extract_lane(sums, 1) + wasm_i32x4_extract_lane(sums, 2) + wasm_i32x4_extract_lane(sums, 3);
    corr[r] = -64 * sum;
  }
}
