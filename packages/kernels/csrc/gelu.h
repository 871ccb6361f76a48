// Exact GELU, x · (0.5 + 0.5 · erf(x · √½)), on f32x4, and the float32 erf under it: the one
// source of attnkit's erf. The tfjs fills (tfjs-fills.c: Erf and the GELU kernel on tfjs-wasm's
// memory) and the GEMM epilogues (int8-gemm.h, f32-gemm.h) include it; scripts/build-wasm.mjs copies
// the coefficients below into src/wasm/erf-coefficients.ts, from which erfF32 / geluF32 (the
// JavaScript fallback, src/erf-f32.ts) take them, and erf-f32.test.ts checks that fallback against
// this code bit for bit. The same operations in the same order everywhere (the modules are built
// with -ffp-contract=off: no fused multiply-adds). With a = |x|: a < 1 → s · (c0 + t · A(t)),
// s = a, t = s²; a ≥ 1 → 1 − B(u) / Q(u), u = min(a, 4) − 2.5; capped at 1, x's sign put back.
#include <stdint.h>
#include <wasm_simd128.h>

#define ERF_STEP(p, v, c) wasm_f32x4_add(wasm_f32x4_mul(p, v), wasm_f32x4_splat(c))

// Coefficients: float32 fits to float64 erf by tooling/reference/fit_erf.py (max error 1.6e-7 on
// [-6, 6]), lowest degree first. 2/√π, then A (degree 5), B (degree 8), Q (degree 4).
#define ERF_C0 1.128379225730896f
#define ERF_A0 -0.37612637877464294f
#define ERF_A1 0.11283755302429199f
#define ERF_A2 -0.026861809194087982f
#define ERF_A3 0.005204884335398674f
#define ERF_A4 -0.0008165474864654243f
#define ERF_A5 0.0000839369313325733f
#define ERF_B0 0.00040695167263038456f
#define ERF_B1 -0.0017775046871975064f
#define ERF_B2 0.0035376723390072584f
#define ERF_B3 -0.004184968303889036f
#define ERF_B4 0.003199236234650016f
#define ERF_B5 -0.0015922862803563476f
#define ERF_B6 0.00048555328976362944f
#define ERF_B7 -0.00007593821646878496f
#define ERF_B8 0.000003350436600157991f
#define ERF_Q0 1.0f
#define ERF_Q1 0.9847162961959839f
#define ERF_Q2 0.5821244716644287f
#define ERF_Q3 0.1752055436372757f
#define ERF_Q4 0.02811521291732788f

static inline v128_t erf_f32x4(v128_t x) {
  const v128_t one = wasm_f32x4_splat(1.0f);
  v128_t a = wasm_f32x4_abs(x);
  v128_t s = wasm_f32x4_pmin(a, one); // NaN stays NaN
  v128_t t = wasm_f32x4_mul(s, s);
  v128_t u = wasm_f32x4_sub(wasm_f32x4_pmin(a, wasm_f32x4_splat(4.0f)), wasm_f32x4_splat(2.5f));
  v128_t p = wasm_f32x4_splat(ERF_A5);
  p = ERF_STEP(p, t, ERF_A4);
  p = ERF_STEP(p, t, ERF_A3);
  p = ERF_STEP(p, t, ERF_A2);
  p = ERF_STEP(p, t, ERF_A1);
  p = ERF_STEP(p, t, ERF_A0);
  v128_t r = wasm_f32x4_splat(ERF_B8);
  r = ERF_STEP(r, u, ERF_B7);
  r = ERF_STEP(r, u, ERF_B6);
  r = ERF_STEP(r, u, ERF_B5);
  r = ERF_STEP(r, u, ERF_B4);
  r = ERF_STEP(r, u, ERF_B3);
  r = ERF_STEP(r, u, ERF_B2);
  r = ERF_STEP(r, u, ERF_B1);
  r = ERF_STEP(r, u, ERF_B0);
  v128_t q = wasm_f32x4_splat(ERF_Q4);
  q = ERF_STEP(q, u, ERF_Q3);
  q = ERF_STEP(q, u, ERF_Q2);
  q = ERF_STEP(q, u, ERF_Q1);
  q = ERF_STEP(q, u, ERF_Q0);
  s = wasm_f32x4_mul(s, wasm_f32x4_add(wasm_f32x4_splat(ERF_C0), wasm_f32x4_mul(t, p)));
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
