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
#include "attention-rows.h"

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
        // out rows = (p [MR, S] · v [S, Dv]) · inv; one query row (decoding without grouped heads) skips the idle rows
        if (rows == 1) weighted_values_row(p, s, vh, vs3.t, dv, inv[0], oh + i0 * os3.t);
        else weighted_values_block(p, sp, rows, s, vh, vs3.t, dv, inv[0], inv[1], inv[2], inv[3], oh + i0 * os3.t, os3.t);
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
