// Shared body of the float32 GEMM kernels: out[n, m] = act(A · Wᵀ + bias) with A float32 [n, k]
// (activations, row-major) and W float32 [m, k] (PyTorch's Linear weight [out, in], rows
// contiguous in k), then optionally out = LayerNorm(out + residual) · gamma + beta per row.
//
// Each output starts from its bias (or 0) and adds a[p] · w[p] for p = 0, 1, ..., k − 1 in order,
// in float32: the order of XNNPACK's f32 GEMM, which tfjs-wasm's matMul runs. With MADD a multiply
// then an add (f32-gemm-simd.c), the product equals tfjs-wasm's fused matMul bit for bit; with
// relaxed SIMD's multiply-add (f32-gemm-relaxed-simd.c; fused where the CPU has FMA) it is within
// a rounding per step.
//
// The including file defines MADD(a, b, c) = a · b + c on f32x4.
//
// Work split: tiles of MR = 4 rows by NB = 8 columns (one row, as in decoding: 1 × 8). A part (thread) owns a contiguous range of
// 8-column panels. The weight is used packed, [panel][k][8] (one 32-byte step per p, panels padded
// with zeros past m): when the job says so, each part first packs its own panels, MC = 64 columns
// at a time, right before it runs every row tile of A against them; otherwise the panels were
// packed by an earlier job (the driver keeps a weight's panels between calls). A is read in place.
// Memory: all pointers are byte offsets in this module's memory, placed by the caller
// (src/wasm-f32-gemm.ts).
#include <stdint.h>
#include <wasm_simd128.h>
#include "gelu.h"
#include "lanes.h"
#include "residual-layer-norm.h"

#define MR 4  // rows of A per tile
#define NB 8  // output columns per tile (two f32x4)
#define MC 64 // output columns packed at a time (a multiple of NB)

extern unsigned char __heap_base;

__attribute__((export_name("heap_base"))) uint32_t heap_base(void) { return (uint32_t)(uintptr_t)&__heap_base; }

/** Floats of a packed [m, k] weight: whole 8-column panels of k steps. */
__attribute__((export_name("packed_floats"))) int32_t packed_floats(int32_t m, int32_t k) { return (m + NB - 1) / NB * NB * k; }

// [a0 a1 a2 a3] x 4 rows -> columns: out[p] = [r0[p], r1[p], r2[p], r3[p]]
#define TRANSPOSE4(r0, r1, r2, r3, o0, o1, o2, o3)                                          \
  {                                                                                         \
    v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7); \
    v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7); \
    o0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);                                            \
    o1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);                                            \
    o2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);                                            \
    o3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);                                            \
  }

// W's rows [j0, j0 + width) (width ≤ MC) into dst [panel][k][NB]; rows past width are zeros.
static void pack_block(float *dst, const float *w, int32_t k, int32_t j0, int32_t width) {
  for (int32_t panel = 0; panel * NB < width; panel++) {
    float *d = dst + panel * NB * k;
    int32_t first = j0 + panel * NB, rows = width - panel * NB < NB ? width - panel * NB : NB;
    if (rows == NB) {
      const float *r[NB];
      for (int32_t c = 0; c < NB; c++) r[c] = w + (int64_t)(first + c) * k;
      int32_t p = 0;
      for (; p + 4 <= k; p += 4) {
        v128_t o0, o1, o2, o3, h0, h1, h2, h3;
        TRANSPOSE4(wasm_v128_load(r[0] + p), wasm_v128_load(r[1] + p), wasm_v128_load(r[2] + p), wasm_v128_load(r[3] + p), o0, o1, o2, o3)
        TRANSPOSE4(wasm_v128_load(r[4] + p), wasm_v128_load(r[5] + p), wasm_v128_load(r[6] + p), wasm_v128_load(r[7] + p), h0, h1, h2, h3)
        float *q = d + p * NB;
        wasm_v128_store(q, o0), wasm_v128_store(q + 4, h0);
        wasm_v128_store(q + 8, o1), wasm_v128_store(q + 12, h1);
        wasm_v128_store(q + 16, o2), wasm_v128_store(q + 20, h2);
        wasm_v128_store(q + 24, o3), wasm_v128_store(q + 28, h3);
      }
      for (; p < k; p++)
        for (int32_t c = 0; c < NB; c++) d[p * NB + c] = r[c][p];
    } else {
      for (int32_t p = 0; p < k; p++)
        for (int32_t c = 0; c < NB; c++) d[p * NB + c] = c < rows ? w[(int64_t)(first + c) * k + p] : 0.0f;
    }
  }
}

// One tile: rows a0..a3 (k floats each) against a packed panel, accumulators starting at b0, b1.
static inline void tile(const float *a0, const float *a1, const float *a2, const float *a3, const float *panel, int32_t k, v128_t b0, v128_t b1, v128_t c[2 * MR]) {
  v128_t c00 = b0, c01 = b1, c10 = b0, c11 = b1, c20 = b0, c21 = b1, c30 = b0, c31 = b1;
  for (int32_t p = 0; p < k; p++, panel += NB) {
    v128_t w0 = wasm_v128_load(panel), w1 = wasm_v128_load(panel + 4);
    v128_t x = wasm_v128_load32_splat(a0 + p);
    c00 = MADD(x, w0, c00), c01 = MADD(x, w1, c01);
    x = wasm_v128_load32_splat(a1 + p);
    c10 = MADD(x, w0, c10), c11 = MADD(x, w1, c11);
    x = wasm_v128_load32_splat(a2 + p);
    c20 = MADD(x, w0, c20), c21 = MADD(x, w1, c21);
    x = wasm_v128_load32_splat(a3 + p);
    c30 = MADD(x, w0, c30), c31 = MADD(x, w1, c31);
  }
  c[0] = c00, c[1] = c01, c[2] = c10, c[3] = c11, c[4] = c20, c[5] = c21, c[6] = c30, c[7] = c31;
}

// One row of A (n = 1: a token per step, as in decoding) against one packed panel, accumulators
// starting at b0, b1: the tile above would multiply the row four times (its rows past n repeat row
// i). The same sums in the same order, so the same floats. One panel at a time reads the weight as
// one sequential stream, which measured faster in decoding than two panels side by side.
static inline void row_tile(const float *a, const float *panel, int32_t k, v128_t b0, v128_t b1, v128_t c[2]) {
  v128_t c0 = b0, c1 = b1;
  for (int32_t p = 0; p < k; p++, panel += NB) {
    v128_t x = wasm_v128_load32_splat(a + p);
    c0 = MADD(x, wasm_v128_load(panel), c0), c1 = MADD(x, wasm_v128_load(panel + 4), c1);
  }
  c[0] = c0, c[1] = c1;
}

// A product as a job for several threads (the words src/wasm-f32-gemm.ts writes).
typedef struct {
  int32_t n, m, k;
  const float *a, *w, *bias; // bias 0: none
  int32_t activation;        // 0 none, 1 exact GELU (gelu.h)
  float *out;
  float *packed;  // packed_floats(m, k) floats: the weight's panels
  int32_t phase;  // 0: the product; 1: out = LayerNorm(out + residual) · gamma + beta (residual-layer-norm.h)
  const float *residual, *gamma, *beta;
  float eps;
  int32_t pack; // 1: pack w into packed first (each part its own panels); 0: packed already holds them
} f32_gemm_job;

// The one-row product's columns [j0, j0 + width) from their packed panels, a panel at a time.
static void row_columns(const f32_gemm_job *job, const float *packed, int32_t j0, int32_t width);

// Output columns [col_begin, col_end) (col_begin a multiple of NB), every row.
static void gemm_columns(const f32_gemm_job *job, int32_t col_begin, int32_t col_end) {
  const int32_t n = job->n, m = job->m, k = job->k;
  for (int32_t j0 = col_begin; j0 < col_end; j0 += MC) {
    int32_t width = col_end - j0 < MC ? col_end - j0 : MC;
    float *packed = job->packed + (int64_t)j0 * k; // panel j0 / NB
    if (job->pack) pack_block(packed, job->w, k, j0, width);
    if (n == 1) {
      row_columns(job, packed, j0, width);
      continue;
    }
    for (int32_t i = 0; i < n; i += MR) {
      int32_t rows = n - i < MR ? n - i : MR;
      const float *a0 = job->a + (int64_t)i * k; // rows past n read row i again (computed, not stored)
      const float *a1 = rows > 1 ? a0 + k : a0, *a2 = rows > 2 ? a0 + 2 * k : a0, *a3 = rows > 3 ? a0 + 3 * k : a0;
      for (int32_t j = 0; j < width; j += NB) {
        int32_t col = j0 + j, cols = width - j < NB ? width - j : NB;
        v128_t b0 = wasm_f32x4_splat(0.0f), b1 = b0;
        if (job->bias) {
          if (cols == NB) b0 = wasm_v128_load(job->bias + col), b1 = wasm_v128_load(job->bias + col + 4);
          else b0 = load_lanes(job->bias + col, cols < 4 ? cols : 4), b1 = load_lanes(job->bias + col + 4, cols > 4 ? cols - 4 : 0);
        }
        v128_t c[2 * MR];
        tile(a0, a1, a2, a3, packed + j * k, k, b0, b1, c);
        for (int32_t r = 0; r < rows; r++) {
          v128_t v0 = c[2 * r], v1 = c[2 * r + 1];
          if (job->activation == 1) v0 = gelu_f32x4(v0), v1 = gelu_f32x4(v1);
          float *o = job->out + (int64_t)(i + r) * m + col;
          if (cols == NB) {
            wasm_v128_store(o, v0), wasm_v128_store(o + 4, v1);
          } else {
            store_lanes(o, v0, cols < 4 ? cols : 4), store_lanes(o + 4, v1, cols > 4 ? cols - 4 : 0);
          }
        }
      }
    }
  }
}

static void row_columns(const f32_gemm_job *job, const float *packed, int32_t j0, int32_t width) {
  const int32_t k = job->k;
  for (int32_t j = 0; j < width; j += NB) {
    int32_t col = j0 + j, cols = width - j < NB ? width - j : NB;
    const int32_t low = cols < 4 ? cols : 4, high = cols > 4 ? cols - 4 : 0; // of the panel's NB = 8 columns
    v128_t b0 = wasm_f32x4_splat(0.0f), b1 = b0;
    if (job->bias) b0 = load_lanes(job->bias + col, low), b1 = load_lanes(job->bias + col + 4, high);
    v128_t c[2];
    row_tile(job->a, packed + (int64_t)j * k, k, b0, b1, c);
    if (job->activation == 1) c[0] = gelu_f32x4(c[0]), c[1] = gelu_f32x4(c[1]);
    store_lanes(job->out + col, c[0], low), store_lanes(job->out + col + 4, c[1], high); // lane stores (lanes.h): no memcpy
  }
}

/**
 * Part `part` of `parts` of a job: phase 0, a contiguous share of the 8-column panels (packing them
 * first if the job says so); phase 1 (after every part of phase 0), a contiguous share of the rows
 * for the residual LayerNorm.
 */
__attribute__((export_name("run_part"))) void run_part(const f32_gemm_job *job, int32_t part, int32_t parts) {
  if (job->n <= 0 || job->m <= 0 || parts <= 0) return;
  if (job->phase == 1) {
    int32_t begin = (int32_t)((int64_t)job->n * part / parts), end = (int32_t)((int64_t)job->n * (part + 1) / parts);
    residual_layer_norm_rows(job->out, job->residual, job->gamma, job->beta, begin, end, job->m, job->eps);
    return;
  }
  int32_t panels = (job->m + NB - 1) / NB;
  int32_t begin = NB * (int32_t)((int64_t)panels * part / parts), end = NB * (int32_t)((int64_t)panels * (part + 1) / parts);
  if (end > job->m) end = job->m;
  if (begin < end) gemm_columns(job, begin, end);
}
