#pragma once
// The row-level pieces of attnkit's fused attention, shared by the fused-attention module
// (fused-attention.c: blocks of MR query rows on the module's own memory, threaded) and the tfjs
// fill for few query rows (tfjs-fills.c: attention_rows on tfjs-wasm's memory, where a decoding step's
// cached keys and values are read in place). The same operations in the same order in both, so both
// give the same numbers. No data and no stack: the fill's module may touch only the tensors it is given.
#include <stdint.h>
#include <wasm_simd128.h>
#include "exp.h"

static const float LOWEST = -3.4028234663852886e38f;

static inline float exp1(float x) { return wasm_f32x4_extract_lane(exp4(wasm_f32x4_splat(x)), 0); }

// 4 mask bytes -> 4 lanes of all ones where non-zero
static inline v128_t allowed4(const uint8_t *m) {
  v128_t bytes = wasm_v128_load32_zero(m);
  v128_t wide = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(bytes));
  return wasm_v128_not(wasm_i32x4_eq(wide, wasm_i32x4_splat(0)));
}

// One score row x [S] in place: + bias, then the masked softmax's numerators exp(x − shift) (0 where
// blocked). Returns the reciprocal of their sum (0 when the sum is 0: the row gives zeros).
static float softmax_row(float *x, int32_t s, const uint8_t *mask, const float *bias) {
  int32_t s4 = s & ~3, j;
  v128_t mv = wasm_f32x4_splat(LOWEST);
  for (j = 0; j < s4; j += 4) {
    v128_t xv = wasm_v128_load(x + j);
    if (bias) xv = wasm_f32x4_add(xv, wasm_v128_load(bias + j));
    wasm_v128_store(x + j, xv);
    if (mask) xv = wasm_v128_bitselect(xv, wasm_f32x4_splat(LOWEST), allowed4(mask + j));
    mv = wasm_f32x4_pmax(mv, xv); // mv < x ? x : mv — a NaN never becomes the max
  }
  mv = wasm_f32x4_pmax(mv, wasm_i32x4_shuffle(mv, mv, 2, 3, 0, 1));
  float m = wasm_f32x4_extract_lane(wasm_f32x4_pmax(mv, wasm_i32x4_shuffle(mv, mv, 1, 0, 3, 2)), 0);
  for (; j < s; j++) {
    float xj = bias ? x[j] + bias[j] : x[j];
    x[j] = xj;
    if ((!mask || mask[j]) && m < xj) m = xj;
  }
  float shift = (m - m == 0.0f) ? m : 0.0f; // not finite (nothing allowed, only −∞): 0
  v128_t sh = wasm_f32x4_splat(shift), total4 = wasm_f32x4_splat(0.0f);
  for (j = 0; j < s4; j += 4) {
    v128_t e = exp4(wasm_f32x4_sub(wasm_v128_load(x + j), sh));
    if (mask) e = wasm_v128_and(e, allowed4(mask + j));
    wasm_v128_store(x + j, e);
    total4 = wasm_f32x4_add(total4, e);
  }
  float total = (wasm_f32x4_extract_lane(total4, 0) + wasm_f32x4_extract_lane(total4, 1)) + (wasm_f32x4_extract_lane(total4, 2) + wasm_f32x4_extract_lane(total4, 3));
  for (; j < s; j++) {
    float e = (!mask || mask[j]) ? exp1(x[j] - shift) : 0.0f;
    x[j] = e;
    total += e;
  }
  return total == 0.0f ? 0.0f : 1.0f / total;
}

// Scores of a single block of query rows (T ≤ MR: a decoding step, where the rows are its one token
// or the n query heads of one key/value head): p[r, j] = qs[r] · k[j], each a dot product over D read
// straight from k's rows (no kᵀ copy), four lanes of partial sums then (l0 + l1) + (l2 + l3), then
// the D mod 4 tail in order. One row is computed alone; more rows all MR (idle rows are zeros).
static inline float sum4(v128_t a) {
  return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 1)) + (wasm_f32x4_extract_lane(a, 2) + wasm_f32x4_extract_lane(a, 3));
}

static void scores_direct(const float *qs, int32_t rows, const float *kh, int32_t k_row, int32_t s, int32_t d, float *p, int32_t sp) {
  int32_t d4 = d & ~3;
  for (int32_t j = 0; j < s; j++) {
    const float *kj = kh + (int64_t)j * k_row;
    if (rows == 1) {
      v128_t a0 = wasm_f32x4_splat(0.0f);
      for (int32_t c = 0; c < d4; c += 4) a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load(qs + c), wasm_v128_load(kj + c)));
      float x0 = sum4(a0);
      for (int32_t c = d4; c < d; c++) x0 += qs[c] * kj[c];
      p[j] = x0;
      continue;
    }
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (int32_t c = 0; c < d4; c += 4) {
      v128_t kv = wasm_v128_load(kj + c);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load(qs + c), kv));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_v128_load(qs + d + c), kv));
      a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wasm_v128_load(qs + 2 * d + c), kv));
      a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wasm_v128_load(qs + 3 * d + c), kv));
    }
    float x0 = sum4(a0), x1 = sum4(a1), x2 = sum4(a2), x3 = sum4(a3);
    for (int32_t c = d4; c < d; c++) x0 += qs[c] * kj[c], x1 += qs[d + c] * kj[c], x2 += qs[2 * d + c] * kj[c], x3 += qs[3 * d + c] * kj[c];
    p[j] = x0, p[sp + j] = x1, p[2 * sp + j] = x2, p[3 * sp + j] = x3;
  }
}

// One output row = (p [S] · v [S, Dv]) · inv, 8, then 4, then 1 columns at a time, each summed over
// the keys in order: the numbers of row 0 of the MR-row loops below.
static void weighted_values_row(const float *p, int32_t s, const float *vh, int32_t v_row, int32_t dv, float inv, float *o) {
  int32_t c = 0;
  for (; c + 8 <= dv; c += 8) {
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0;
    for (int32_t j = 0; j < s; j++) {
      v128_t x = wasm_f32x4_splat(p[j]);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(x, wasm_v128_load(vh + (int64_t)j * v_row + c)));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(x, wasm_v128_load(vh + (int64_t)j * v_row + c + 4)));
    }
    wasm_v128_store(o + c, wasm_f32x4_mul(a0, wasm_f32x4_splat(inv)));
    wasm_v128_store(o + c + 4, wasm_f32x4_mul(a1, wasm_f32x4_splat(inv)));
  }
  for (; c + 4 <= dv; c += 4) {
    v128_t a0 = wasm_f32x4_splat(0.0f);
    for (int32_t j = 0; j < s; j++) a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_f32x4_splat(p[j]), wasm_v128_load(vh + (int64_t)j * v_row + c)));
    wasm_v128_store(o + c, wasm_f32x4_mul(a0, wasm_f32x4_splat(inv)));
  }
  for (; c < dv; c++) {
    float a = 0.0f;
    for (int32_t j = 0; j < s; j++) a += p[j] * vh[(int64_t)j * v_row + c];
    o[c] = a * inv;
  }
}

// Rows of query q (element strides of one operand: batch, head, row) over all S keys, one row at
// a time: the query row scaled into qs [D] (scratch), its scores p [S] (scratch) as dot products
// over k's rows (scores_direct), the masked softmax in place, and p · v into the output row
// (weighted_values_row): the numbers of fused-attention.c for T ≤ MR. Mask and bias as there:
// element strides per batch, head and row (0 where broadcast), the last axis contiguous with S
// entries; pointer 0 = none.
static void attention_rows(
    const float *q, const float *k, const float *v, float *out,
    int32_t q_b, int32_t q_h, int32_t q_t, int32_t k_b, int32_t k_h, int32_t k_t, int32_t v_b, int32_t v_h, int32_t v_t, int32_t o_b, int32_t o_h, int32_t o_t,
    int32_t nb, int32_t nh, int32_t t, int32_t s, int32_t d, int32_t dv, float scale,
    const uint8_t *mask, int32_t mask_b, int32_t mask_h, int32_t mask_t,
    const float *bias, int32_t bias_b, int32_t bias_h, int32_t bias_t,
    float *scratch) {
  float *qs = scratch, *p = scratch + d;
  for (int32_t b = 0; b < nb; b++) {
    for (int32_t h = 0; h < nh; h++) {
      const float *kh = k + (int64_t)b * k_b + (int64_t)h * k_h, *vh = v + (int64_t)b * v_b + (int64_t)h * v_h;
      for (int32_t i = 0; i < t; i++) {
        const float *qi = q + (int64_t)b * q_b + (int64_t)h * q_h + (int64_t)i * q_t;
        for (int32_t c = 0; c < d; c++) qs[c] = qi[c] * scale;
        scores_direct(qs, 1, kh, k_t, s, d, p, s);
        const uint8_t *mi = mask ? mask + (int64_t)b * mask_b + (int64_t)h * mask_h + (int64_t)i * mask_t : 0;
        const float *bi = bias ? bias + (int64_t)b * bias_b + (int64_t)h * bias_h + (int64_t)i * bias_t : 0;
        float inv = softmax_row(p, s, mi, bi);
        weighted_values_row(p, s, vh, v_t, dv, inv, out + (int64_t)b * o_b + (int64_t)h * o_h + (int64_t)i * o_t);
      }
    }
  }
}
