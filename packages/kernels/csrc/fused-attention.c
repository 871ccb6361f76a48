// Fused attention, float32 wasm SIMD (f32x4): for each batch b and head h,
//   out[b, h] = softmax_allowed(q[b, h] · k[b, h]ᵀ · scale + bias) · v[b, h]
// without materialising the scores [B, H, T, S]. Query rows go MR at a time: their scores over all
// S keys land in a scratch block p [MR, Sp] (Sp = S rounded up to NR_S), the masked softmax turns
// that block into unnormalised weights in place, and p · v is normalised row by row at the end.
// Scratch per call: kᵀ of one head [D, Sp], the block p [MR, Sp], the scaled query rows [MR, D].
// With T ≤ MR (a decoding step: one block) the scores are dot products over k's own rows instead,
// without the kᵀ copy, and a single query row skips the idle rows of p · v (scores_direct,
// weighted_values_row): a SmolLM-135M-shaped decoding step spends 43 % less in attention.
//
// The masked softmax is attnkit's (packages/masks maskedSoftmax): the max and the sum are taken
// over allowed entries only (bias added first); a row whose max is not finite (nothing allowed, or
// only −∞ allowed) is shifted by 0; a row whose sum is 0 gives zeros; a NaN among the allowed
// scores makes the row NaN. Blocked scores are never read into the result.
//
// Memory: pointers are byte offsets in this module's memory, placed by the caller from heap_base()
// up; scratch_bytes(s, d) says how much scratch one call needs. Mask: one byte per entry
// (non-zero = may attend), element strides mask_b, mask_h, mask_t (0 where broadcast), the last
// axis contiguous with S entries; pointer 0 = no mask. Bias: float32 with strides bias_b, bias_h,
// bias_t, the last axis contiguous; pointer 0 = no bias. Nothing is read or written when any of
// B, H, T is 0; S = 0 gives zeros; D = 0 gives scores of 0.
#include <stdint.h>
#include <wasm_simd128.h>
#include "exp.h"

#define MR 4   // query rows per block
#define NR_S 8 // keys per score tile (two f32x4)

extern unsigned char __heap_base;

__attribute__((export_name("heap_base"))) uint32_t heap_base(void) { return (uint32_t)(uintptr_t)&__heap_base; }

static inline int32_t round_up(int32_t x, int32_t m) { return (x + m - 1) / m * m; }

/** Bytes of scratch one call needs for S keys and head dim D (16-byte aligned pieces). */
__attribute__((export_name("scratch_bytes"))) uint32_t scratch_bytes(int32_t s, int32_t d) {
  uint32_t sp = (uint32_t)round_up(s, NR_S);
  return (uint32_t)round_up((int32_t)(4 * d * sp), 16) + 4 * MR * sp + (uint32_t)round_up(4 * MR * d, 16) + 16;
}

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

// Heads [head_begin, head_end) of the flattened B·H of one attention (see fused_attention), with
// this caller's own scratch: the unit of work one thread runs.
// Element strides of one operand: batch, head and row (query or key position); the last axis is contiguous.
typedef struct {
  int32_t b, h, t;
} strides3;

static void attend_heads(
    const float *q, const float *k, const float *v, float *out,
    strides3 qs3, strides3 ks3, strides3 vs3, strides3 os3,
    int32_t nh, int32_t t, int32_t s, int32_t d, int32_t dv, float scale,
    const uint8_t *mask, int32_t mask_b, int32_t mask_h, int32_t mask_t,
    const float *bias, int32_t bias_b, int32_t bias_h, int32_t bias_t,
    int32_t head_begin, int32_t head_end, uint8_t *scratch) {
  int32_t sp = round_up(s, NR_S);
  float *kt = (float *)scratch;                                   // [D, Sp]
  float *p = (float *)(scratch + round_up(4 * d * sp, 16));       // [MR, Sp]
  float *qs = p + MR * sp;                                        // [MR, D]
  for (int32_t head = head_begin; head < head_end; head++) {
    {
      int32_t b = head / nh, h = head % nh;
      const float *qh = q + (int64_t)b * qs3.b + (int64_t)h * qs3.h, *kh = k + (int64_t)b * ks3.b + (int64_t)h * ks3.h, *vh = v + (int64_t)b * vs3.b + (int64_t)h * vs3.h;
      float *oh = out + (int64_t)b * os3.b + (int64_t)h * os3.h;
      // kᵀ: [S, D] -> [D, Sp], the padding keys zero (a single block of rows reads k as it is)
      for (int32_t c = 0; c < d && t > MR; c++) {
        float *row = kt + c * sp;
        int32_t j = 0;
        for (; j < s; j++) row[j] = kh[j * ks3.t + c];
        for (; j < sp; j++) row[j] = 0.0f;
      }
      const uint8_t *mh = mask ? mask + (int64_t)b * mask_b + (int64_t)h * mask_h : 0;
      const float *bh = bias ? bias + (int64_t)b * bias_b + (int64_t)h * bias_h : 0;
      for (int32_t i0 = 0; i0 < t; i0 += MR) {
        int32_t rows = t - i0 < MR ? t - i0 : MR;
        // the block's query rows, scaled (rows past T: zeros)
        for (int32_t r = 0; r < MR; r++)
          for (int32_t c = 0; c < d; c++) qs[r * d + c] = r < rows ? qh[(i0 + r) * qs3.t + c] * scale : 0.0f;
        if (t <= MR) {
          scores_direct(qs, rows, kh, ks3.t, s, d, p, sp);
        } else {
        // scores p [MR, Sp] = qs [MR, D] · kᵀ [D, Sp], 4 x 8 tiles, summed over D in order
        for (int32_t j = 0; j < sp; j += NR_S) {
          v128_t a00 = wasm_f32x4_splat(0.0f), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00, a30 = a00, a31 = a00;
          for (int32_t c = 0; c < d; c++) {
            v128_t k0 = wasm_v128_load(kt + c * sp + j), k1 = wasm_v128_load(kt + c * sp + j + 4), x;
            x = wasm_f32x4_splat(qs[c]);         a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(x, k0)); a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(x, k1));
            x = wasm_f32x4_splat(qs[d + c]);     a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(x, k0)); a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(x, k1));
            x = wasm_f32x4_splat(qs[2 * d + c]); a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(x, k0)); a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(x, k1));
            x = wasm_f32x4_splat(qs[3 * d + c]); a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(x, k0)); a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(x, k1));
          }
          wasm_v128_store(p + j, a00); wasm_v128_store(p + j + 4, a01);
          wasm_v128_store(p + sp + j, a10); wasm_v128_store(p + sp + j + 4, a11);
          wasm_v128_store(p + 2 * sp + j, a20); wasm_v128_store(p + 2 * sp + j + 4, a21);
          wasm_v128_store(p + 3 * sp + j, a30); wasm_v128_store(p + 3 * sp + j + 4, a31);
        }
        }
        // masked softmax numerators, in place; rows past T are left as they are (never stored)
        float inv[MR] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int32_t r = 0; r < rows; r++) {
          int32_t i = i0 + r;
          inv[r] = softmax_row(p + r * sp, s, mh ? mh + (int64_t)i * mask_t : 0, bh ? bh + (int64_t)i * bias_t : 0);
        }
        // out rows = (p [MR, S] · v [S, Dv]) · inv, 8, then 4, then 1 output columns at a time
        int32_t c = 0;
        if (rows == 1) { // one query row (decoding without grouped heads): the same sums, the three idle rows skipped
          weighted_values_row(p, s, vh, vs3.t, dv, inv[0], oh + i0 * os3.t);
          c = dv;
        }
        for (; c + 8 <= dv; c += 8) {
          v128_t a00 = wasm_f32x4_splat(0.0f), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00, a30 = a00, a31 = a00;
          for (int32_t j = 0; j < s; j++) {
            v128_t v0 = wasm_v128_load(vh + j * vs3.t + c), v1 = wasm_v128_load(vh + j * vs3.t + c + 4), x;
            x = wasm_f32x4_splat(p[j]);          a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(x, v0)); a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(x, v1));
            x = wasm_f32x4_splat(p[sp + j]);     a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(x, v0)); a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(x, v1));
            x = wasm_f32x4_splat(p[2 * sp + j]); a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(x, v0)); a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(x, v1));
            x = wasm_f32x4_splat(p[3 * sp + j]); a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(x, v0)); a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(x, v1));
          }
          v128_t acc[MR][2] = {{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}};
          for (int32_t r = 0; r < rows; r++) {
            v128_t w = wasm_f32x4_splat(inv[r]);
            wasm_v128_store(oh + (i0 + r) * os3.t + c, wasm_f32x4_mul(acc[r][0], w));
            wasm_v128_store(oh + (i0 + r) * os3.t + c + 4, wasm_f32x4_mul(acc[r][1], w));
          }
        }
        for (; c + 4 <= dv; c += 4) {
          v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
          for (int32_t j = 0; j < s; j++) {
            v128_t v0 = wasm_v128_load(vh + j * vs3.t + c);
            a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_f32x4_splat(p[j]), v0));
            a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_f32x4_splat(p[sp + j]), v0));
            a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wasm_f32x4_splat(p[2 * sp + j]), v0));
            a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wasm_f32x4_splat(p[3 * sp + j]), v0));
          }
          v128_t acc[MR] = {a0, a1, a2, a3};
          for (int32_t r = 0; r < rows; r++) wasm_v128_store(oh + (i0 + r) * os3.t + c, wasm_f32x4_mul(acc[r], wasm_f32x4_splat(inv[r])));
        }
        for (; c < dv; c++) {
          for (int32_t r = 0; r < rows; r++) {
            float a = 0.0f;
            for (int32_t j = 0; j < s; j++) a += p[r * sp + j] * vh[j * vs3.t + c];
            oh[(i0 + r) * os3.t + c] = a * inv[r];
          }
        }
      }
    }
  }
}

/**
 * out [B, H, T, Dv] = softmax(q [B, H, T, D] · k [B, H, S, D]ᵀ · scale + bias, mask) · v [B, H, S, Dv].
 * Mask and bias as described at the top (pointer 0 = none).
 */
__attribute__((export_name("fused_attention"))) void fused_attention(
    const float *q, const float *k, const float *v, float *out,
    int32_t nb, int32_t nh, int32_t t, int32_t s, int32_t d, int32_t dv, float scale,
    const uint8_t *mask, int32_t mask_b, int32_t mask_h, int32_t mask_t,
    const float *bias, int32_t bias_b, int32_t bias_h, int32_t bias_t,
    uint8_t *scratch) {
  if (nb <= 0 || nh <= 0 || t <= 0) return;
  strides3 qs3 = {nh * t * d, t * d, d}, ks3 = {nh * s * d, s * d, d}, vs3 = {nh * s * dv, s * dv, dv}, os3 = {nh * t * dv, t * dv, dv}; // [B, H, T|S, D|Dv], contiguous
  attend_heads(q, k, v, out, qs3, ks3, vs3, os3, nh, t, s, d, dv, scale, mask, mask_b, mask_h, mask_t, bias, bias_b, bias_h, bias_t, 0, nb * nh, scratch);
}

// One attention as a job for several threads (the words src/wasm-fused-attention.ts writes).
typedef struct {
  const float *q, *k, *v;
  float *out;
  int32_t nb, nh, t, s, d, dv;
  float scale;
  const uint8_t *mask;
  int32_t mask_b, mask_h, mask_t;
  const float *bias;
  int32_t bias_b, bias_h, bias_t;
  uint8_t *scratch;       // parts blocks of scratch_stride bytes, one per part
  int32_t scratch_stride;
  strides3 q_strides, k_strides, v_strides, out_strides; // element strides of B, H and T|S: [B, H, T, D] contiguous, or rows of tokens ([B, T, H, D], a fused [B, T, 3, H, D])
} attention_job;

/** Part `part` of `parts` of a job: a contiguous share of the B·H heads, each part its own scratch. */
__attribute__((export_name("run_part"))) void run_part(const attention_job *job, int32_t part, int32_t parts) {
  if (job->nb <= 0 || job->nh <= 0 || job->t <= 0 || parts <= 0) return;
  int32_t heads = job->nb * job->nh;
  int32_t begin = (int32_t)((int64_t)heads * part / parts), end = (int32_t)((int64_t)heads * (part + 1) / parts);
  attend_heads(job->q, job->k, job->v, job->out, job->q_strides, job->k_strides, job->v_strides, job->out_strides, job->nh, job->t, job->s, job->d, job->dv, job->scale,
               job->mask, job->mask_b, job->mask_h, job->mask_t, job->bias, job->bias_b, job->bias_h, job->bias_t,
               begin, end, job->scratch + (int64_t)job->scratch_stride * part);
}
