// Masked softmax over rows of `width` floats: the entries whose mask byte is non-zero (`true` = may
// attend) get softmax weights, the others exactly 0; the row's max is taken over the allowed
// entries, then exp(s − max) summed, then one division per row. A row with nothing allowed (or only
// −∞ allowed) is all zeros, a NaN among the allowed scores makes its row NaN. The rules of
// packages/masks maskedSoftmax, which checks the tfjs kernel (tfjs-fills.c) against its composite.
// exp: Cody–Waite reduction to |r| ≤ ln2/2, a degree-7 Taylor polynomial, 2ⁿ from the exponent bits;
// below −88 it is 0. Sixteen floats per step in four independent chains, then four, then one.
#include <stdint.h>
#include <wasm_simd128.h>

// Loops over a row are not unrolled: clang's unrolled copies run ≈ 12% slower on V8 (measured
// against the hand-scheduled WAT this file replaced), the chains in them are already four wide.
#define SOFTMAX_LOOP _Pragma("clang loop unroll(disable)")
#define SOFTMAX_MAGIC 12583039.0f // 1.5·2²³ + 127: round(x / ln 2) + the exponent bias in the low bits

/** e^x for x ≤ 0 (NaN stays NaN; below −88 it is 0). */
static inline v128_t softmax_exp_f32x4(v128_t x) {
  v128_t r = wasm_f32x4_pmax(x, wasm_f32x4_splat(-88.0f)); // pmax keeps a NaN x
  v128_t n = wasm_f32x4_add(wasm_f32x4_mul(r, wasm_f32x4_splat(1.4426950408889634f)), wasm_f32x4_splat(SOFTMAX_MAGIC));
  v128_t p = wasm_f32x4_sub(n, wasm_f32x4_splat(SOFTMAX_MAGIC)); // n as a float
  r = wasm_f32x4_sub(wasm_f32x4_sub(r, wasm_f32x4_mul(p, wasm_f32x4_splat(0.693359375f))), wasm_f32x4_mul(p, wasm_f32x4_splat(-0.00021219444f))); // ln 2 in two parts
  p = wasm_f32x4_splat(0.0001984126984126984f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.001388888888888889f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.008333333333333333f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.041666666666666664f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.16666666666666666f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  return wasm_f32x4_mul(p, wasm_i32x4_shl(n, 23)); // · 2ⁿ: (n + 127) << 23 are its bits
}

/** All ones in the lanes whose mask byte (of the four at `mask`) is non-zero. */
static inline v128_t softmax_allowed4(const uint8_t *mask) {
  v128_t bytes = wasm_v128_load32_zero(mask);
  return wasm_i32x4_ne(wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(bytes)), wasm_i32x4_splat(0));
}

static inline float softmax_max(float a, float b) { return __builtin_wasm_max_f32(a, b); } // f32.max: NaN wins

static void masked_softmax_rows(const float *scores, const uint8_t *mask, float *out, int32_t rows, int32_t width, int32_t mask_row_bytes) {
  const v128_t minus_inf = wasm_f32x4_splat(-__builtin_inff()), zero = wasm_f32x4_splat(0.0f);
  for (int32_t row = 0; row < rows; row++) {
    // the max over the allowed entries (pmax skips NaN here; a NaN still makes its row NaN through exp)
    v128_t acc = minus_inf, acc1 = minus_inf;
    float max = -__builtin_inff();
    int32_t i = 0;
    SOFTMAX_LOOP for (; i + 15 < width; i += 16) {
      acc = wasm_f32x4_pmax(acc, wasm_v128_bitselect(wasm_v128_load(scores + i), minus_inf, softmax_allowed4(mask + i)));
      acc1 = wasm_f32x4_pmax(acc1, wasm_v128_bitselect(wasm_v128_load(scores + i + 4), minus_inf, softmax_allowed4(mask + i + 4)));
      acc = wasm_f32x4_pmax(acc, wasm_v128_bitselect(wasm_v128_load(scores + i + 8), minus_inf, softmax_allowed4(mask + i + 8)));
      acc1 = wasm_f32x4_pmax(acc1, wasm_v128_bitselect(wasm_v128_load(scores + i + 12), minus_inf, softmax_allowed4(mask + i + 12)));
    }
    SOFTMAX_LOOP for (; i + 3 < width; i += 4) acc = wasm_f32x4_pmax(acc, wasm_v128_bitselect(wasm_v128_load(scores + i), minus_inf, softmax_allowed4(mask + i)));
    SOFTMAX_LOOP for (; i < width; i++) max = softmax_max(max, mask[i] != 0 ? scores[i] : -__builtin_inff());
    v128_t both = wasm_f32x4_pmax(acc, acc1);
    max = softmax_max(max, softmax_max(softmax_max(wasm_f32x4_extract_lane(both, 0), wasm_f32x4_extract_lane(both, 1)), softmax_max(wasm_f32x4_extract_lane(both, 2), wasm_f32x4_extract_lane(both, 3))));
    if (max == -__builtin_inff()) {
      // nothing allowed, or only −∞ allowed: zeros; NaN where a NaN is allowed (pmax skipped it)
      float fill = 0.0f;
      SOFTMAX_LOOP for (i = 0; i < width; i++) if (mask[i] != 0 && scores[i] != scores[i]) fill = __builtin_nanf("");
      SOFTMAX_LOOP for (i = 0; i < width; i++) out[i] = fill;
    } else {
      // e = exp(s − max) (0 where blocked), summed: 16 floats per step in four chains, then 4, then 1
      v128_t max_v = wasm_f32x4_splat(max);
      acc = zero;
      acc1 = zero;
      float sum = 0.0f;
      SOFTMAX_LOOP for (i = 0; i + 15 < width; i += 16) {
        v128_t r0 = wasm_v128_bitselect(softmax_exp_f32x4(wasm_f32x4_sub(wasm_v128_load(scores + i), max_v)), zero, softmax_allowed4(mask + i));
        v128_t r1 = wasm_v128_bitselect(softmax_exp_f32x4(wasm_f32x4_sub(wasm_v128_load(scores + i + 4), max_v)), zero, softmax_allowed4(mask + i + 4));
        v128_t r2 = wasm_v128_bitselect(softmax_exp_f32x4(wasm_f32x4_sub(wasm_v128_load(scores + i + 8), max_v)), zero, softmax_allowed4(mask + i + 8));
        v128_t r3 = wasm_v128_bitselect(softmax_exp_f32x4(wasm_f32x4_sub(wasm_v128_load(scores + i + 12), max_v)), zero, softmax_allowed4(mask + i + 12));
        wasm_v128_store(out + i, r0);
        wasm_v128_store(out + i + 4, r1);
        wasm_v128_store(out + i + 8, r2);
        wasm_v128_store(out + i + 12, r3);
        acc = wasm_f32x4_add(acc, wasm_f32x4_add(r0, r1));
        acc1 = wasm_f32x4_add(acc1, wasm_f32x4_add(r2, r3));
      }
      SOFTMAX_LOOP for (; i + 3 < width; i += 4) {
        v128_t r0 = wasm_v128_bitselect(softmax_exp_f32x4(wasm_f32x4_sub(wasm_v128_load(scores + i), max_v)), zero, softmax_allowed4(mask + i));
        wasm_v128_store(out + i, r0);
        acc = wasm_f32x4_add(acc, r0);
      }
      SOFTMAX_LOOP for (; i < width; i++) {
        float e = mask[i] != 0 ? wasm_f32x4_extract_lane(softmax_exp_f32x4(wasm_f32x4_splat(scores[i] - max)), 0) : 0.0f;
        out[i] = e;
        sum = sum + e;
      }
      acc = wasm_f32x4_add(acc, acc1);
      float inv = 1.0f / (sum + ((wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) + (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3))));
      v128_t inv_v = wasm_f32x4_splat(inv);
      SOFTMAX_LOOP for (i = 0; i + 3 < width; i += 4) wasm_v128_store(out + i, wasm_f32x4_mul(wasm_v128_load(out + i), inv_v));
      SOFTMAX_LOOP for (; i < width; i++) out[i] = out[i] * inv;
    }
    scores += width;
    out += width;
    mask += mask_row_bytes;
  }
}
