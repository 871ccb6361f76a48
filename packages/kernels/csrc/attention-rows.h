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

// [a0..a3], [b..], [c..], [d..] -> [sum4(a), sum4(b), sum4(c), sum4(d)]: each (l0 + l1) + (l2 + l3)
static inline v128_t sum4x4(v128_t a, v128_t b, v128_t c, v128_t d) {
  v128_t ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 2, 6), wasm_i32x4_shuffle(a, b, 1, 5, 3, 7)); // [a0+a1, b0+b1, a2+a3, b2+b3]
  v128_t cd = wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 2, 6), wasm_i32x4_shuffle(c, d, 1, 5, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

static void scores_direct(const float *qs, int32_t rows, const float *kh, int32_t k_row, int32_t s, int32_t d, float *p, int32_t sp) {
  int32_t d4 = d & ~3, j = 0;
  if (rows == 1 && d4 == d) { // four keys at a time: four independent sums (each the one-key sum below, to the bit)
    for (; j + 4 <= s; j += 4) {
      const float *k0 = kh + (int64_t)j * k_row, *k1 = k0 + k_row, *k2 = k1 + k_row, *k3 = k2 + k_row;
      v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
      for (int32_t c = 0; c < d4; c += 4) {
        v128_t x = wasm_v128_load(qs + c);
        a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(x, wasm_v128_load(k0 + c)));
        a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(x, wasm_v128_load(k1 + c)));
        a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(x, wasm_v128_load(k2 + c)));
        a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(x, wasm_v128_load(k3 + c)));
      }
      wasm_v128_store(p + j, sum4x4(a0, a1, a2, a3));
    }
  }
  for (; j < s; j++) {
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

// One output row = (p [S] · v [S, Dv]) · inv, 32, 8, then 4, then 1 columns at a time, each summed
// over the keys in order: the numbers of row 0 of the MR-row loops below.
static void weighted_values_row(const float *p, int32_t s, const float *vh, int32_t v_row, int32_t dv, float inv, float *o) {
  int32_t c = 0;
  for (; c + 32 <= dv; c += 32) { // 32 columns a pass: eight independent sums over the keys, each column's the same as 8 at a time
    v128_t a[8];
    for (int32_t u = 0; u < 8; u++) a[u] = wasm_f32x4_splat(0.0f);
    for (int32_t j = 0; j < s; j++) {
      v128_t x = wasm_f32x4_splat(p[j]);
      const float *vj = vh + (int64_t)j * v_row + c;
      for (int32_t u = 0; u < 8; u++) a[u] = wasm_f32x4_add(a[u], wasm_f32x4_mul(x, wasm_v128_load(vj + 4 * u)));
    }
    for (int32_t u = 0; u < 8; u++) wasm_v128_store(o + c + 4 * u, wasm_f32x4_mul(a[u], wasm_f32x4_splat(inv)));
  }
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

// Rows r < rows (2 to 4) of out = (p [4, S] · v [S, Dv]) · inv_r, the rows' scores at p + r · sp: 8,
// then 4, then 1 columns at a time, each summed over the keys in order, so row r has the numbers of
// weighted_values_row over its own scores. v is read once for the block (the query heads of one
// key/value head share it); rows past `rows` read row 0's scores and are not stored.
static void weighted_values_block(const float *p, int32_t sp, int32_t rows, int32_t s, const float *vh, int32_t v_row, int32_t dv, float inv0, float inv1, float inv2, float inv3, float *o, int32_t o_row) {
  const float *p0 = p, *p1 = rows > 1 ? p + sp : p, *p2 = rows > 2 ? p + 2 * sp : p, *p3 = rows > 3 ? p + 3 * sp : p;
  float *o0 = o, *o1 = o + o_row, *o2 = o + 2 * (int64_t)o_row, *o3 = o + 3 * (int64_t)o_row; // stored only for rows < `rows`
  const v128_t w0 = wasm_f32x4_splat(inv0), w1 = wasm_f32x4_splat(inv1), w2 = wasm_f32x4_splat(inv2), w3 = wasm_f32x4_splat(inv3);
  int32_t c = 0;
  for (; c + 8 <= dv; c += 8) {
    v128_t a00 = wasm_f32x4_splat(0.0f), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00, a30 = a00, a31 = a00;
    for (int32_t j = 0; j < s; j++) {
      const float *vj = vh + (int64_t)j * v_row + c;
      v128_t v0 = wasm_v128_load(vj), v1 = wasm_v128_load(vj + 4), x;
      x = wasm_f32x4_splat(p0[j]); a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(x, v0)); a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(x, v1));
      x = wasm_f32x4_splat(p1[j]); a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(x, v0)); a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(x, v1));
      x = wasm_f32x4_splat(p2[j]); a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(x, v0)); a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(x, v1));
      x = wasm_f32x4_splat(p3[j]); a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(x, v0)); a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(x, v1));
    }
    wasm_v128_store(o0 + c, wasm_f32x4_mul(a00, w0)), wasm_v128_store(o0 + c + 4, wasm_f32x4_mul(a01, w0));
    wasm_v128_store(o1 + c, wasm_f32x4_mul(a10, w1)), wasm_v128_store(o1 + c + 4, wasm_f32x4_mul(a11, w1));
    if (rows > 2) wasm_v128_store(o2 + c, wasm_f32x4_mul(a20, w2)), wasm_v128_store(o2 + c + 4, wasm_f32x4_mul(a21, w2));
    if (rows > 3) wasm_v128_store(o3 + c, wasm_f32x4_mul(a30, w3)), wasm_v128_store(o3 + c + 4, wasm_f32x4_mul(a31, w3));
  }
  for (; c + 4 <= dv; c += 4) {
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (int32_t j = 0; j < s; j++) {
      v128_t v0 = wasm_v128_load(vh + (int64_t)j * v_row + c);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_f32x4_splat(p0[j]), v0));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_f32x4_splat(p1[j]), v0));
      a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wasm_f32x4_splat(p2[j]), v0));
      a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wasm_f32x4_splat(p3[j]), v0));
    }
    wasm_v128_store(o0 + c, wasm_f32x4_mul(a0, w0));
    wasm_v128_store(o1 + c, wasm_f32x4_mul(a1, w1));
    if (rows > 2) wasm_v128_store(o2 + c, wasm_f32x4_mul(a2, w2));
    if (rows > 3) wasm_v128_store(o3 + c, wasm_f32x4_mul(a3, w3));
  }
  for (; c < dv; c++) {
    float b0 = 0.0f, b1 = 0.0f, b2 = 0.0f, b3 = 0.0f;
    for (int32_t j = 0; j < s; j++) {
      float x = vh[(int64_t)j * v_row + c];
      b0 += p0[j] * x, b1 += p1[j] * x, b2 += p2[j] * x, b3 += p3[j] * x;
    }
    o0[c] = b0 * inv0, o1[c] = b1 * inv1;
    if (rows > 2) o2[c] = b2 * inv2;
    if (rows > 3) o3[c] = b3 * inv3;
  }
}

// Rows of query q (element strides of one operand: batch, head, row) over all S keys, up to 4 rows
// of a head at a time (a decoding step's query heads of one key/value head): the rows scaled into
// qs [4, D] (scratch), their scores p [4, S] (scratch) as dot products over k's rows
// (scores_direct), the masked softmax in place, and p · v into the output rows
// (weighted_values_row for one, weighted_values_block for more): the numbers of fused-attention.c
// for T ≤ MR. Scratch: 4 · (D + S) floats. Only the (batch, head) pairs [pair_begin, pair_end) of
// the B · H (row-major: b · H + h) are computed, so that threads can take disjoint ranges. Mask and bias as there:
// element strides per batch, head and row (0 where broadcast), the last axis contiguous with S
// entries; pointer 0 = none.
static void attention_rows(
    const float *q, const float *k, const float *v, float *out,
    int32_t q_b, int32_t q_h, int32_t q_t, int32_t k_b, int32_t k_h, int32_t k_t, int32_t v_b, int32_t v_h, int32_t v_t, int32_t o_b, int32_t o_h, int32_t o_t,
    int32_t nb, int32_t nh, int32_t t, int32_t s, int32_t d, int32_t dv, float scale,
    const uint8_t *mask, int32_t mask_b, int32_t mask_h, int32_t mask_t,
    const float *bias, int32_t bias_b, int32_t bias_h, int32_t bias_t,
    float *scratch, int32_t pair_begin, int32_t pair_end) {
  float *qs = scratch, *p = scratch + 4 * d; // qs [4, D], p [4, S]
  for (int32_t pair = pair_begin; pair < pair_end && pair < nb * nh; pair++) {
    {
      int32_t b = pair / nh, h = pair % nh;
      const float *kh = k + (int64_t)b * k_b + (int64_t)h * k_h, *vh = v + (int64_t)b * v_b + (int64_t)h * v_h;
      for (int32_t i0 = 0; i0 < t; i0 += 4) { // up to 4 rows a block: k and v read once for them
        int32_t rows = t - i0 < 4 ? t - i0 : 4;
        for (int32_t r = 0; r < 4; r++) {
          const float *qi = q + (int64_t)b * q_b + (int64_t)h * q_h + (int64_t)(i0 + r) * q_t;
          for (int32_t c = 0; c < d; c++) qs[r * d + c] = r < rows ? qi[c] * scale : 0.0f;
        }
        scores_direct(qs, rows, kh, k_t, s, d, p, s);
        float inv0 = 0.0f, inv1 = 0.0f, inv2 = 0.0f, inv3 = 0.0f; // scalars: this header's fill has no stack
        for (int32_t r = 0; r < rows; r++) {
          int32_t i = i0 + r;
          const uint8_t *mi = mask ? mask + (int64_t)b * mask_b + (int64_t)h * mask_h + (int64_t)i * mask_t : 0;
          const float *bi = bias ? bias + (int64_t)b * bias_b + (int64_t)h * bias_h + (int64_t)i * bias_t : 0;
          float inv = softmax_row(p + r * s, s, mi, bi);
          if (r == 0) inv0 = inv; else if (r == 1) inv1 = inv; else if (r == 2) inv2 = inv; else inv3 = inv;
        }
        float *oi = out + (int64_t)b * o_b + (int64_t)h * o_h + (int64_t)i0 * o_t;
        if (rows == 1) weighted_values_row(p, s, vh, v_t, dv, inv0, oi);
        else weighted_values_block(p, s, rows, s, vh, v_t, dv, inv0, inv1, inv2, inv3, oi, o_t);
      }
    }
  }
}
