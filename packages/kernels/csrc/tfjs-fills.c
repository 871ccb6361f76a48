// The kernels attnkit registers into tfjs-backend-wasm (src/tfjs-fills/): they run on tfjs-wasm's
// own memory (imported as env.memory; pointers are byte offsets of its tensors), so they read and
// write tensors in place, without copies. No stack, no data: the module must not touch memory
// other than the tensors it is given (scripts/build-wasm.mjs checks the compiled module).
//   erf(in, out, n), gelu(in, out, n): elementwise over n float32 (gelu.h)
//   geluTanh(in, out, n): the tanh approximation of GELU, elementwise over n float32 (gelu-tanh.h)
//   layerNorm(x, gamma, beta, out, rows, width, eps): nn.LayerNorm over rows (layer-norm.h)
//   maskedSoftmax(scores, mask, out, rows, width, maskRowBytes): over rows, the mask one byte per
//     entry advancing maskRowBytes per row (0: one mask row for all rows) (masked-softmax.h)
//   rmsNorm(x, weight, out, rows, width, eps): LlamaRMSNorm over rows (rms-norm.h)
//   siluMul(x, out, rows, width): SwiGLU's silu(gate) · up from rows [gate | up] (silu-mul.h)
//   rotaryHeads(x, cos, sin, out, batch, length, heads, dim, rotaryDim): [B, T, H, D] → [B, H, T, D]
//     with rotary position embeddings applied (rotary.h)
//   attentionRows(q, k, v, out, mask, bias, scratch, shape, strides, scale): fused attention one
//     query row at a time, for a decoding step's few rows over its cached keys (attention-rows.h);
//     shape = [B, H, T, S, D, Dv] and strides = element strides of batch, head and row for q, k, v,
//     out, mask, bias (0 where broadcast), both int32 arrays in memory
#include <stdint.h>
#include <wasm_simd128.h>
#include "attention-rows.h"
#include "gelu.h"
#include "gelu-tanh.h"
#include "layer-norm.h"
#include "masked-softmax.h"
#include "rms-norm.h"
#include "rotary.h"
#include "silu-mul.h"

__attribute__((export_name("erf"))) void erf_fill(const float *in, float *out, int32_t n) {
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) { // four vectors in flight: the Horner chains are latency-bound
    v128_t y0 = erf_f32x4(wasm_v128_load(in + i)), y1 = erf_f32x4(wasm_v128_load(in + i + 4));
    v128_t y2 = erf_f32x4(wasm_v128_load(in + i + 8)), y3 = erf_f32x4(wasm_v128_load(in + i + 12));
    wasm_v128_store(out + i, y0), wasm_v128_store(out + i + 4, y1), wasm_v128_store(out + i + 8, y2), wasm_v128_store(out + i + 12, y3);
  }
  for (; i < n; i++) out[i] = wasm_f32x4_extract_lane(erf_f32x4(wasm_f32x4_splat(in[i])), 0);
}

__attribute__((export_name("gelu"))) void gelu_fill(const float *in, float *out, int32_t n) {
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v128_t y0 = gelu_f32x4(wasm_v128_load(in + i)), y1 = gelu_f32x4(wasm_v128_load(in + i + 4));
    v128_t y2 = gelu_f32x4(wasm_v128_load(in + i + 8)), y3 = gelu_f32x4(wasm_v128_load(in + i + 12));
    wasm_v128_store(out + i, y0), wasm_v128_store(out + i + 4, y1), wasm_v128_store(out + i + 8, y2), wasm_v128_store(out + i + 12, y3);
  }
  for (; i < n; i++) out[i] = wasm_f32x4_extract_lane(gelu_f32x4(wasm_f32x4_splat(in[i])), 0);
}

__attribute__((export_name("geluTanh"))) void gelu_tanh_fill(const float *in, float *out, int32_t n) {
  gelu_tanh_values(in, out, n);
}

__attribute__((export_name("layerNorm"))) void layer_norm_fill(const float *x, const float *gamma, const float *beta, float *out, int32_t rows, int32_t width, float eps) {
  layer_norm_rows(x, gamma, beta, out, 0, rows, width, eps);
}

__attribute__((export_name("maskedSoftmax"))) void masked_softmax_fill(const float *scores, const uint8_t *mask, float *out, int32_t rows, int32_t width, int32_t mask_row_bytes) {
  masked_softmax_rows(scores, mask, out, rows, width, mask_row_bytes);
}

__attribute__((export_name("rmsNorm"))) void rms_norm_fill(const float *x, const float *weight, float *out, int32_t rows, int32_t width, float eps) {
  rms_norm_rows(x, weight, out, rows, width, eps);
}

__attribute__((export_name("siluMul"))) void silu_mul_fill(const float *x, float *out, int32_t rows, int32_t width) {
  silu_mul_rows(x, out, rows, width);
}

__attribute__((export_name("rotaryHeads"))) void rotary_heads_fill(const float *x, const float *cos, const float *sin, float *out, int32_t batch, int32_t length, int32_t heads, int32_t dim, int32_t rdim) {
  rotary_heads(x, cos, sin, out, batch, length, heads, dim, rdim);
}

__attribute__((export_name("attentionRows"))) void attention_rows_fill(const float *q, const float *k, const float *v, float *out, const uint8_t *mask, const float *bias, float *scratch, const int32_t *shape, const int32_t *st, float scale) {
  attention_rows(q, k, v, out, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9], st[10], st[11],
                 shape[0], shape[1], shape[2], shape[3], shape[4], shape[5], scale,
                 mask, st[12], st[13], st[14], bias, st[15], st[16], st[17], scratch, 0, shape[0] * shape[1]);
}

// A job for the kernel threads (on the threads variant, whose memory tfjs-wasm shares with the
// workers): 12 words at `job`. Word 0 is the kind, 1: attention rows, with the attentionRows
// fill's arguments as byte offsets (q, k, v, out, mask, bias, scratch), the scratch floats each
// part uses, the shape and strides words, and the scale's float bits. Part `part` of `parts` takes
// the (batch, head) pairs [n · part / parts, n · (part + 1) / parts) with its own scratch.
__attribute__((export_name("run_part"))) void run_part(const int32_t *job, int32_t part, int32_t parts) {
  if (job[0] != 1) return;
  const int32_t *shape = (const int32_t *)(uintptr_t)job[9], *st = (const int32_t *)(uintptr_t)job[10];
  int32_t pairs = shape[0] * shape[1];
  int32_t begin = (int32_t)((int64_t)pairs * part / parts), end = (int32_t)((int64_t)pairs * (part + 1) / parts);
  if (begin >= end) return;
  float scale;
  __builtin_memcpy(&scale, &job[11], 4);
  float *scratch = (float *)(uintptr_t)job[7] + (int64_t)part * job[8];
  attention_rows((const float *)(uintptr_t)job[1], (const float *)(uintptr_t)job[2], (const float *)(uintptr_t)job[3], (float *)(uintptr_t)job[4],
                 st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9], st[10], st[11],
                 shape[0], shape[1], shape[2], shape[3], shape[4], shape[5], scale,
                 (const uint8_t *)(uintptr_t)job[5], st[12], st[13], st[14], (const float *)(uintptr_t)job[6], st[15], st[16], st[17], scratch, begin, end);
}
