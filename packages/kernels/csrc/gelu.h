// Exact GELU, x · (0.5 + 0.5 · erf(x · √½)), on f32x4, with the float32 erf of attnkit's wasm
// kernels: the same coefficients (ERF_F32 of @attnkit/backends, which a test compares with the
// literals below) and the same operations in the same order, so it equals geluF32 and the
// backends' GELU kernel bit for bit (the modules are built with -ffp-contract=off: no fused
// multiply-adds). With a = |x|: a < 1 → s · (c0 + t · A(t)), s = a, t = s²; a ≥ 1 →
// 1 − B(u) / Q(u), u = min(a, 4) − 2.5; capped at 1, x's sign put back.
#include <wasm_simd128.h>

#define ERF_STEP(p, v, c) wasm_f32x4_add(wasm_f32x4_mul(p, v), wasm_f32x4_splat(c))

// Coefficients, lowest degree first (the test reads these three lines).
// ERF_C0 1.128379225730896f
// ERF_A -0.37612637877464294f 0.11283755302429199f -0.026861809194087982f 0.005204884335398674f -0.0008165474864654243f 0.0000839369313325733f
// ERF_B 0.00040695167263038456f -0.0017775046871975064f 0.0035376723390072584f -0.004184968303889036f 0.003199236234650016f -0.0015922862803563476f 0.00048555328976362944f -0.00007593821646878496f 0.000003350436600157991f
// ERF_Q 1.0f 0.9847162961959839f 0.5821244716644287f 0.1752055436372757f 0.02811521291732788f
static inline v128_t erf_f32x4(v128_t x) {
  const v128_t one = wasm_f32x4_splat(1.0f);
  v128_t a = wasm_f32x4_abs(x);
  v128_t s = wasm_f32x4_pmin(a, one); // NaN stays NaN
  v128_t t = wasm_f32x4_mul(s, s);
  v128_t u = wasm_f32x4_sub(wasm_f32x4_pmin(a, wasm_f32x4_splat(4.0f)), wasm_f32x4_splat(2.5f));
  v128_t p = wasm_f32x4_splat(0.0000839369313325733f);
  p = ERF_STEP(p, t, -0.0008165474864654243f);
  p = ERF_STEP(p, t, 0.005204884335398674f);
  p = ERF_STEP(p, t, -0.026861809194087982f);
  p = ERF_STEP(p, t, 0.11283755302429199f);
  p = ERF_STEP(p, t, -0.37612637877464294f);
  v128_t r = wasm_f32x4_splat(0.000003350436600157991f);
  r = ERF_STEP(r, u, -0.00007593821646878496f);
  r = ERF_STEP(r, u, 0.00048555328976362944f);
  r = ERF_STEP(r, u, -0.0015922862803563476f);
  r = ERF_STEP(r, u, 0.003199236234650016f);
  r = ERF_STEP(r, u, -0.004184968303889036f);
  r = ERF_STEP(r, u, 0.0035376723390072584f);
  r = ERF_STEP(r, u, -0.0017775046871975064f);
  r = ERF_STEP(r, u, 0.00040695167263038456f);
  v128_t q = wasm_f32x4_splat(0.02811521291732788f);
  q = ERF_STEP(q, u, 0.1752055436372757f);
  q = ERF_STEP(q, u, 0.5821244716644287f);
  q = ERF_STEP(q, u, 0.9847162961959839f);
  q = ERF_STEP(q, u, 1.0f);
  s = wasm_f32x4_mul(s, wasm_f32x4_add(wasm_f32x4_splat(1.128379225730896f), wasm_f32x4_mul(t, p)));
  r = wasm_f32x4_sub(one, wasm_f32x4_div(r, q));
  // s where a < 1, else r: each masked to +0 in the other lanes and added (exact: x + 0 = x, and a
  // NaN stays in r's lanes). Not a bitselect: the relaxed f32 GEMM uses bitselect as a placeholder.
  v128_t below = wasm_f32x4_lt(a, one);
  v128_t magnitude = wasm_f32x4_pmin(wasm_f32x4_add(wasm_v128_and(s, below), wasm_v128_andnot(r, below)), one);
  return wasm_v128_or(magnitude, wasm_v128_and(x, wasm_i32x4_splat((int32_t)0x80000000)));
}

static inline v128_t gelu_f32x4(v128_t x) {
  const v128_t half = wasm_f32x4_splat(0.5f);
  v128_t e = erf_f32x4(wasm_f32x4_mul(x, wasm_f32x4_splat(0.7071067811865476f)));
  return wasm_f32x4_mul(x, wasm_f32x4_add(half, wasm_f32x4_mul(half, e)));
}
