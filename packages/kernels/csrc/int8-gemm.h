// Shared body of the int8 GEMM kernels: C = A·Bᵀ with A int8 [N, K] (activations, one scale per
// row) and B int8 [M, K] (weights, one scale per output channel, rows contiguous in K), int32
// accumulation, then out = (float)acc · rowScale · colScale (+ bias) in float32, left to right.
//
// The including file defines the variant:
//   KSTEP             values of K per step (8 for i16 lanes, 16 for i8 lanes)
//   elem_t            the packed element type of A (int16_t or int8_t/uint8_t)
//   belem_t, LOAD_B   B's packed element type and the load of one step of a column as a vector
//                     (default: elem_t and v128.load; the plain SIMD variant keeps B as int8 and
//                     widens it in the load, v128.load8x8_s, so a kept weight is one byte a value)
//   pack_a, pack_b    copy A / B into zero-padded panels in scratch, interleaved by tile: a block
//                     of MR rows of A (NR rows of B) is stored [Kp / KSTEP][MR][KSTEP], so one
//                     step of a tile reads MR (NR) consecutive vectors from one pointer
//   DOT(acc, a, b)    acc += the dot products of one step, 4 int32 lanes
//   correction(j)     int32 to add to column j's accumulators (0, or the 7-bit offset's term)
//
// Memory: all pointers are byte offsets in this module's memory, placed by the caller from
// heap_base() up; scratch_bytes(n, m, k) says how much scratch the packing needs. Nothing is read
// or written when n or m is 0.
#include <stdint.h>
#include <wasm_simd128.h>
#include "gelu.h"
#include "lanes.h"
#include "residual-layer-norm.h"
#include "rms-norm.h"
#define EXP_NO_BITSELECT // v128.bitselect is the relaxed dot-add module's placeholder (int8-gemm-relaxed-dot-add.c)
#include "silu-mul.h"

#ifndef LOAD_B
typedef elem_t belem_t;
#define LOAD_B(p) wasm_v128_load(p)
#endif

#define MR 4  // rows of A per tile
#ifndef NR
#define NR 2  // rows of B (output columns) per tile
#endif
_Static_assert(NR <= 4, "row_tile sums a tile's columns into one vector");
#ifndef ROW_UNROLL
#define ROW_UNROLL 4 // steps of K per iteration of row_tile (even)
#endif
_Static_assert(ROW_UNROLL % 2 == 0, "row_tile alternates two sets of sums");
#define MC (32 * NR) // output columns per cache block (a multiple of NR): the B panel stays in L2 while A tiles stream

extern unsigned char __heap_base;

__attribute__((export_name("heap_base"))) uint32_t heap_base(void) { return (uint32_t)(uintptr_t)&__heap_base; }

static inline int32_t round_up(int32_t x, int32_t m) { return (x + m - 1) / m * m; }

/** Bytes of scratch the packing of an [n, k] by [m, k] product needs (16-byte aligned pieces). */
__attribute__((export_name("scratch_bytes"))) uint32_t scratch_bytes(int32_t n, int32_t m, int32_t k) {
  uint32_t kp = (uint32_t)round_up(k, KSTEP);
  uint32_t panel_a = (uint32_t)round_up(n, MR) * kp * sizeof(elem_t);
  uint32_t panel_b = (uint32_t)round_up(m, NR) * kp * sizeof(belem_t);
  return round_up(panel_a, 16) + round_up(panel_b, 16) + (uint32_t)round_up(m, NR) * 4 + 16;
}

// [a0 a1 a2 a3], [b..], [c..], [d..] -> [Σa, Σb, Σc, Σd]
static inline v128_t reduce4(v128_t a, v128_t b, v128_t c, v128_t d) {
  v128_t ab = wasm_i32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
  v128_t cd = wasm_i32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_i32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

// Offset of element (row r, depth p) in a panel interleaved by blocks of `block` rows.
static inline int32_t panel_index(int32_t r, int32_t p, int32_t kp, int32_t block) {
  return (r / block) * block * kp + (p / KSTEP) * block * KSTEP + (r % block) * KSTEP + p % KSTEP;
}

// One MR x NR tile over the whole (padded) K, from interleaved panels: sums[j] holds column j's
// MR = 4 rows' sums.
static inline void tile(const elem_t *a, const belem_t *b, int32_t kp, v128_t sums[NR]) {
  v128_t c[MR][NR];
  for (int32_t r = 0; r < MR; r++)
    for (int32_t j = 0; j < NR; j++) c[r][j] = wasm_i32x4_const_splat(0);
  for (int32_t p = 0; p < kp; p += KSTEP, a += MR * KSTEP, b += NR * KSTEP) {
    v128_t w[NR];
    for (int32_t j = 0; j < NR; j++) w[j] = LOAD_B(b + j * KSTEP);
    for (int32_t r = 0; r < MR; r++) {
      v128_t x = wasm_v128_load(a + r * KSTEP);
      for (int32_t j = 0; j < NR; j++) DOT(c[r][j], x, w[j]);
    }
  }
  for (int32_t j = 0; j < NR; j++) sums[j] = reduce4(c[0][j], c[1][j], c[2][j], c[3][j]);
}

// The packed panels in scratch: A [np, kp], B [mp, kp] and the per-column corrections.
#define PANELS                                                                                   \
  int32_t kp = round_up(k < 0 ? 0 : k, KSTEP), np = round_up(n, MR), mp = round_up(m, NR);       \
  elem_t *pa = (elem_t *)scratch;                                                                \
  belem_t *pb = (belem_t *)(scratch + round_up(np * kp * (int32_t)sizeof(elem_t), 16));         \
  int32_t *corr = (int32_t *)((uint8_t *)pb + round_up(mp * kp * (int32_t)sizeof(belem_t), 16)); \
  (void)np;

// Packing: A's panel first in scratch, so it depends on n and k only (a packed A may serve several
// products with different B: the query, key and value projections of one input).
/** Packs A [n, k] into scratch (the first step of a product; see run_part). */
__attribute__((export_name("int8_gemm_pack_a"))) void int8_gemm_pack_a(const int8_t *a, int32_t n, int32_t k, uint8_t *scratch) {
  if (n <= 0) return;
  int32_t m = 0;
  PANELS
  (void)pb, (void)corr, (void)mp;
  pack_a(pa, a, n, np, k, kp, 0, np);
}

/** Packs B [m, k] and its column corrections into scratch, after A's panel for n rows. */
__attribute__((export_name("int8_gemm_pack_b"))) void int8_gemm_pack_b(const int8_t *b, int32_t n, int32_t m, int32_t k, uint8_t *scratch) {
  if (n <= 0 || m <= 0) return;
  PANELS
  (void)pa;
  pack_b(pb, corr, b, m, mp, k, kp);
}

/** Bytes of B's packed panel and its column corrections, as int8_gemm_pack_b_to lays them out. */
__attribute__((export_name("packed_b_bytes"))) uint32_t packed_b_bytes(int32_t m, int32_t k) {
  uint32_t kp = (uint32_t)round_up(k < 0 ? 0 : k, KSTEP), mp = (uint32_t)round_up(m, NR);
  return round_up(mp * kp * sizeof(belem_t), 16) + mp * 4;
}

/**
 * Packs B [m, k] into dst (packed_b_bytes(m, k) bytes, 16-aligned): the panel, then the column
 * corrections. A job whose packed_b points there uses it instead of the panel in its scratch, so a
 * weight's panel can be kept between products.
 */
__attribute__((export_name("int8_gemm_pack_b_to"))) void int8_gemm_pack_b_to(const int8_t *b, int32_t m, int32_t k, uint8_t *dst) {
  if (m <= 0) return;
  int32_t kp = round_up(k < 0 ? 0 : k, KSTEP), mp = round_up(m, NR);
  pack_b((belem_t *)dst, (int32_t *)(dst + round_up(mp * kp * (int32_t)sizeof(belem_t), 16)), b, m, mp, k, kp);
}

/** 1 when the n bytes at a and b are equal, else 0 (whether a kept weight's source bytes are still the weight's). */
__attribute__((export_name("bytes_equal"))) int32_t bytes_equal(const uint8_t *a, const uint8_t *b, int32_t n) {
  int32_t i = 0;
  for (; i + 16 <= n; i += 16)
    if (!wasm_i8x16_all_true(wasm_i8x16_eq(wasm_v128_load(a + i), wasm_v128_load(b + i)))) return 0;
  for (; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

static void int8_gemm_pack(const int8_t *a, const int8_t *b, int32_t n, int32_t m, int32_t k, uint8_t *scratch) {
  int8_gemm_pack_a(a, n, k, scratch);
  int8_gemm_pack_b(b, n, m, k, scratch);
}

// Runs the tiles of output columns [j_begin, j_end) (multiples of NR) from packed panels; `emit`
// stores one column's 4 rows (rows i..i+3, column j) where they exist.
#define GEMM_COLUMNS(EMIT, J_BEGIN, J_END)                                                       \
  for (int32_t j0 = (J_BEGIN); j0 < (J_END); j0 += MC) {                                         \
    int32_t j1 = j0 + MC < (J_END) ? j0 + MC : (J_END);                                          \
    for (int32_t i = 0; i < np; i += MR) {                                                       \
      int32_t rows = n - i < MR ? n - i : MR;                                                    \
      for (int32_t j = j0; j < j1; j += NR) {                                                    \
        v128_t sums[NR];                                                                         \
        tile(pa + i * kp, pb + j * kp, kp, sums);                                                \
        for (int32_t c = 0; c < NR && j + c < m; c++) EMIT(sums[c], j + c);                      \
      }                                                                                          \
    }                                                                                            \
  }

#define EMIT_F32(s, col)                                                                               \
  {                                                                                                    \
    v128_t v = wasm_f32x4_convert_i32x4(wasm_i32x4_add(s, wasm_i32x4_splat(corr[col])));               \
    v = wasm_f32x4_mul(wasm_f32x4_mul(v, rs), wasm_f32x4_splat(col_scale[col]));                       \
    if (bias) v = wasm_f32x4_add(v, wasm_f32x4_splat(bias[col]));                                      \
    if (activation == 1) v = gelu_f32x4(v);                                                            \
    float lanes[4];                                                                                    \
    wasm_v128_store(lanes, v);                                                                         \
    for (int32_t r = 0; r < rows; r++) out[(i + r) * m + (col)] = lanes[r];                            \
  }
#define EMIT_WITH_ROWS(s, col)                                                                         \
  {                                                                                                    \
    v128_t rs = load_lanes(row_scale + i, rows);                                                       \
    EMIT_F32(s, col)                                                                                   \
  }

// One row of A (n = 1: a token per step, as in decoding) against one tile of B: its NR columns'
// sums (in a vector's first NR lanes). The tile above would also multiply the MR − 1 zero rows of
// A's padded panel; this reads row 0 only (its panel stride is MR · KSTEP), and its int32 sums are
// the same exact integers. One tile at a time reads B as one sequential stream, which measured
// faster in decoding (weights streamed from memory) than two tiles side by side. ROW_UNROLL steps
// of K per iteration, into two sets of sums (int32: any order gives the same integers), cut the
// loop's own instructions: Node, 2-core Intel Xeon, SmolLM-shaped int8 decoding, fastest step of
// each of 6 calls, old and new processes alternating: 19.2–20.2 → 18.2–19.2 ms.
static inline v128_t row_tile(const elem_t *a, const belem_t *b, int32_t kp) {
  v128_t c[NR], d[NR];
  for (int32_t j = 0; j < NR; j++) c[j] = d[j] = wasm_i32x4_const_splat(0);
  int32_t p = 0;
  for (; p + ROW_UNROLL * KSTEP <= kp; p += ROW_UNROLL * KSTEP, a += ROW_UNROLL * MR * KSTEP, b += ROW_UNROLL * NR * KSTEP) {
    for (int32_t u = 0; u < ROW_UNROLL; u += 2) {
      v128_t x0 = wasm_v128_load(a + u * MR * KSTEP), x1 = wasm_v128_load(a + (u + 1) * MR * KSTEP);
      for (int32_t j = 0; j < NR; j++) DOT(c[j], x0, LOAD_B(b + (u * NR + j) * KSTEP));
      for (int32_t j = 0; j < NR; j++) DOT(d[j], x1, LOAD_B(b + ((u + 1) * NR + j) * KSTEP));
    }
  }
  for (; p < kp; p += KSTEP, a += MR * KSTEP, b += NR * KSTEP) {
    v128_t x = wasm_v128_load(a);
    for (int32_t j = 0; j < NR; j++) DOT(c[j], x, LOAD_B(b + j * KSTEP));
  }
  for (int32_t j = 0; j < NR; j++) c[j] = wasm_i32x4_add(c[j], d[j]);
  const v128_t zero = wasm_i32x4_const_splat(0);
  return reduce4(c[0], NR > 1 ? c[1] : zero, NR > 2 ? c[2] : zero, NR > 3 ? c[3] : zero);
}

// out[col .. col + count) (count ≤ 4) of the one row: the arithmetic of EMIT_F32, lane by column.
// Lane loads and stores (lanes.h), not loops over local arrays: clang made those memcpy, which V8
// runs as a call out of the module (four per 2-column tile). Node, 2-core Intel Xeon, old and new
// processes alternating, each process's median step: SmolLM-shaped int8 18.3–18.7 → 17.2–17.7 ms
// at batch 1; GPT-2-shaped about 6 % and batch 4 about 7 % less.
static inline void emit_row(v128_t s, int32_t col, int32_t count, const int32_t *corr, v128_t rs, const float *col_scale, const float *bias, int32_t activation, float *out) {
  v128_t v = wasm_f32x4_convert_i32x4(wasm_i32x4_add(s, load_lanes(corr + col, count)));
  v = wasm_f32x4_mul(wasm_f32x4_mul(v, rs), load_lanes(col_scale + col, count));
  if (bias) v = wasm_f32x4_add(v, load_lanes(bias + col, count));
  if (activation == 1) v = gelu_f32x4(v);
  store_lanes(out + col, v, count);
}

// The columns [j_begin, j_end) (multiples of NR) of a one-row product, a tile at a time.
static void row_columns(int32_t m, int32_t kp, const elem_t *pa, const belem_t *pb, const int32_t *corr, float row_scale, const float *col_scale, const float *bias, int32_t activation, float *out, int32_t j_begin, int32_t j_end) {
  const v128_t rs = wasm_f32x4_splat(row_scale);
  for (int32_t j = j_begin; j < j_end && j < m; j += NR) {
    int32_t count = m - j < NR ? m - j : NR;
    emit_row(row_tile(pa, pb + j * kp, kp), j, count, corr, rs, col_scale, bias, activation, out);
  }
}

// out[n, m] columns [j_begin, j_end) = act((float)acc · rowScale[i] · colScale[j] (+ bias[j])) from
// packed panels (B's from packed_b when it is not 0, else from scratch); act: 0 none, 1 exact GELU (gelu.h).
static void gemm_columns(int32_t n, int32_t m, int32_t k, const float *row_scale, const float *col_scale, const float *bias, int32_t activation, float *out, uint8_t *scratch, uint8_t *packed_b, int32_t j_begin, int32_t j_end) {
  PANELS
  if (packed_b) {
    pb = (belem_t *)packed_b;
    corr = (int32_t *)(packed_b + round_up(mp * kp * (int32_t)sizeof(belem_t), 16));
  }
  if (n == 1) {
    row_columns(m, kp, pa, pb, corr, row_scale[0], col_scale, bias, activation, out, j_begin, j_end);
    return;
  }
  GEMM_COLUMNS(EMIT_WITH_ROWS, j_begin, j_end)
}

/** Raw int32 accumulators out[n, m] (for tests; the same tiles as int8_gemm). */
__attribute__((export_name("int8_gemm_i32"))) void int8_gemm_i32(const int8_t *a, const int8_t *b, int32_t n, int32_t m, int32_t k, int32_t *out, uint8_t *scratch) {
#define EMIT_I32(s, col)                                                          \
  {                                                                               \
    v128_t v = wasm_i32x4_add(s, wasm_i32x4_splat(corr[col]));                    \
    int32_t lanes[4];                                                             \
    wasm_v128_store(lanes, v);                                                    \
    for (int32_t r = 0; r < rows; r++) out[(i + r) * m + (col)] = lanes[r];       \
  }
  if (n <= 0 || m <= 0) return;
  int8_gemm_pack(a, b, n, m, k, scratch);
  PANELS
  GEMM_COLUMNS(EMIT_I32, 0, mp)
}

/** out[n, m] = (float)acc · rowScale[i] · colScale[j] (+ bias[j] when bias ≠ 0), float32. */
__attribute__((export_name("int8_gemm"))) void int8_gemm(const int8_t *a, const int8_t *b, int32_t n, int32_t m, int32_t k, const float *row_scale, const float *col_scale, const float *bias, float *out, uint8_t *scratch) {
  if (n <= 0 || m <= 0) return;
  int8_gemm_pack(a, b, n, m, k, scratch);
  gemm_columns(n, m, k, row_scale, col_scale, bias, 0, out, scratch, 0, 0, round_up(m, NR));
}

// A packed product as a job for several threads (the words src/wasm-int8-gemm.ts writes).
typedef struct {
  int32_t n, m, k;
  const float *row_scale, *col_scale, *bias;
  int32_t activation; // 0 none, 1 exact GELU
  float *out;
  uint8_t *scratch; // packed by int8_gemm_pack_a and int8_gemm_pack_b
  int32_t phase;    // 0: the product; 1: out = LayerNorm(out + residual) · gamma + beta (residual-layer-norm.h)
  const float *residual, *gamma, *beta;
  float eps;
  uint8_t *packed_b; // 0: B's panel is in scratch (int8_gemm_pack_b); else where int8_gemm_pack_b_to put it
  // phase 2: quantize x [n, k] (float32) into a (int8 [n, k]) and row_scale, then pack A's panel into scratch
  const float *x;
  int8_t *a;
  int32_t levels;
  int32_t bad; // set to 1 by a part that met a NaN or ±Infinity (quantize_rows then finds the first, on one thread)
  // phase 2, before quantizing: each row of x normalized in place (x is the module's copy): 0 none,
  // 1 RMSNorm (rms-norm.h, norm_weight), 2 LayerNorm (layer-norm.h, norm_weight and norm_bias)
  int32_t norm;
  const float *norm_weight, *norm_bias;
  float norm_eps;
} gemm_job;

int32_t quantize_rows(const float *x, int32_t n, int32_t k, int32_t levels, int8_t *out, float *scales);

/**
 * Part `part` of `parts` of a packed job: phase 0, a contiguous share of the output column pairs;
 * phase 1 (after every part of phase 0), a contiguous share of the rows for the residual LayerNorm;
 * phase 2, a share of x's blocks of rows normalized (norm), quantized and packed; phase 3 (after
 * phase 0), a share of the rows with the residual added: out = out + residual, float32.
 */
__attribute__((export_name("run_part"))) void run_part(const gemm_job *job, int32_t part, int32_t parts) {
  if (job->n <= 0 || job->m <= 0 || parts <= 0) return;
  if (job->phase == 1) {
    int32_t begin = (int32_t)((int64_t)job->n * part / parts), end = (int32_t)((int64_t)job->n * (part + 1) / parts);
    residual_layer_norm_rows(job->out, job->residual, job->gamma, job->beta, begin, end, job->m, job->eps);
    return;
  }
  if (job->phase == 4) { // SwiGLU between two products: out [n, m] = silu(gate) · up of x [n, 2m] (silu-mul.h), by rows
    int32_t begin = (int32_t)((int64_t)job->n * part / parts), end = (int32_t)((int64_t)job->n * (part + 1) / parts);
    silu_mul_rows(job->x + (int64_t)begin * 2 * job->m, job->out + (int64_t)begin * job->m, end - begin, job->m);
    return;
  }
  if (job->phase == 3) {
    int32_t begin = (int32_t)((int64_t)job->n * part / parts), end = (int32_t)((int64_t)job->n * (part + 1) / parts);
    float *out = job->out + (int64_t)begin * job->m;
    const float *residual = job->residual + (int64_t)begin * job->m;
    int32_t count = (end - begin) * job->m, i = 0;
    for (; i + 4 <= count; i += 4) wasm_v128_store(out + i, wasm_f32x4_add(wasm_v128_load(out + i), wasm_v128_load(residual + i)));
    for (; i < count; i++) out[i] = out[i] + residual[i];
    return;
  }
  if (job->phase == 2) { // a share of the blocks of MR rows: quantized, then packed (the same bytes as on one thread)
    int32_t n = job->n, k = job->k, m = 0, blocks = round_up(n, MR) / MR;
    uint8_t *scratch = job->scratch;
    PANELS
    (void)pb, (void)corr, (void)mp;
    int32_t begin = MR * (int32_t)((int64_t)blocks * part / parts), end = MR * (int32_t)((int64_t)blocks * (part + 1) / parts);
    int32_t rows_end = end < n ? end : n;
    float *x = (float *)job->x; // the module's copy of the activations
    if (rows_end > begin && job->norm == 1) rms_norm_rows(x + (int64_t)begin * k, job->norm_weight, x + (int64_t)begin * k, rows_end - begin, k, job->norm_eps);
    if (rows_end > begin && job->norm == 2) layer_norm_rows(x, job->norm_weight, job->norm_bias, x, begin, rows_end, k, job->norm_eps);
    if (rows_end > begin && quantize_rows(job->x + (int64_t)begin * k, rows_end - begin, k, job->levels, job->a + (int64_t)begin * k, (float *)job->row_scale + begin) >= 0) {
      ((volatile gemm_job *)job)->bad = 1; // every part that writes it writes 1
      return;
    }
    pack_a(pa, job->a, n, np, k, kp, begin, end);
    return;
  }
  int32_t pairs = round_up(job->m, NR) / NR;
  int32_t begin = NR * (int32_t)((int64_t)pairs * part / parts), end = NR * (int32_t)((int64_t)pairs * (part + 1) / parts);
  gemm_columns(job->n, job->m, job->k, job->row_scale, job->col_scale, job->bias, job->activation, job->out, job->scratch, job->packed_b, begin, end);
}

// Symmetric per-row quantization of x [n, k] float32 into out [n, k] int8 and scales [n]:
// scale = f32(max|row| / levels); q = clamp(roundHalfAwayFromZero(f32(x / scale)), ±levels); a
// row with scale 0 is all zeros. Returns -1, or the flat index of the first NaN/±Infinity (then
// the outputs are unspecified). quantizeRows in src/quantize-rows.ts is the same, in JavaScript.
__attribute__((export_name("quantize_rows"))) int32_t quantize_rows(const float *x, int32_t n, int32_t k, int32_t levels, int8_t *out, float *scales) {
  const v128_t inf = wasm_f32x4_splat(__builtin_inff()), half = wasm_f32x4_splat(0.5f), one = wasm_f32x4_splat(1.0f);
  const v128_t sign_bit = wasm_i32x4_splat((int32_t)0x80000000), hi = wasm_f32x4_splat((float)levels), lo = wasm_f32x4_splat(-(float)levels);
  for (int32_t i = 0; i < n; i++) {
    const float *row = x + i * k;
    int8_t *q = out + i * k;
    v128_t vmax = wasm_f32x4_splat(0.0f), bad = wasm_i32x4_splat(0);
    int32_t c = 0;
    for (; c + 4 <= k; c += 4) {
      v128_t a = wasm_f32x4_abs(wasm_v128_load(row + c));
      bad = wasm_i32x4_add(bad, wasm_f32x4_ge(a, inf)); // counts ±Infinity (−1 a lane), NaN below: lanes, not masks, so no v128.bitselect in these modules (see int8-gemm-relaxed-dot-add.c)
      bad = wasm_i32x4_add(bad, wasm_f32x4_ne(a, a));
      vmax = wasm_f32x4_pmax(vmax, a);
    }
    float max = 0.0f;
    int32_t any_bad = wasm_v128_any_true(bad);
    for (int32_t l = 0; l < 4; l++) {
      float v = ((float *)&vmax)[l];
      if (v > max) max = v;
    }
    _Pragma("clang loop vectorize(disable)") for (; c < k; c++) {
      float a = __builtin_fabsf(row[c]);
      if (!(a < __builtin_inff())) any_bad = 1;
      if (a > max) max = a;
    }
    if (any_bad) {
      _Pragma("clang loop vectorize(disable)") for (int32_t p = 0; p < k; p++) if (!(__builtin_fabsf(row[p]) < __builtin_inff())) return i * k + p;
    }
    float scale = max / (float)levels;
    scales[i] = scale;
    if (scale == 0.0f) {
      _Pragma("clang loop vectorize(disable)") for (int32_t p = 0; p < k; p++) q[p] = 0;
      continue;
    }
    const v128_t vs = wasm_f32x4_splat(scale);
#define QUANTIZE4(v)                                                                                     \
  ({                                                                                                     \
    v128_t r = wasm_f32x4_div(v, vs), t = wasm_f32x4_trunc(r);                                           \
    v128_t up = wasm_f32x4_ge(wasm_f32x4_abs(wasm_f32x4_sub(r, t)), half);                               \
    v128_t step = wasm_v128_or(wasm_v128_and(r, sign_bit), one); /* ±1 with r's sign */                   \
    t = wasm_f32x4_sub(t, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(up), step)); /* up: −1 or 0 as a number, so ±1 or ±0 (no bitselect) */ \
    wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_min(wasm_f32x4_max(t, lo), hi));                               \
  })
    c = 0;
    for (; c + 16 <= k; c += 16) {
      v128_t q0 = QUANTIZE4(wasm_v128_load(row + c)), q1 = QUANTIZE4(wasm_v128_load(row + c + 4));
      v128_t q2 = QUANTIZE4(wasm_v128_load(row + c + 8)), q3 = QUANTIZE4(wasm_v128_load(row + c + 12));
      wasm_v128_store(q + c, wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(q0, q1), wasm_i16x8_narrow_i32x4(q2, q3)));
    }
    _Pragma("clang loop vectorize(disable)") for (; c < k; c++) {
      float r = row[c] / scale, t = __builtin_truncf(r);
      if (__builtin_fabsf(r - t) >= 0.5f) t += r < 0 ? -1.0f : 1.0f;
      q[c] = (int8_t)(t > (float)levels ? levels : t < -(float)levels ? -levels : (int32_t)t);
    }
  }
  return -1;
}
