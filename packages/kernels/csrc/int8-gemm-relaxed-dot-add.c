// Relaxed-SIMD int8 GEMM on the fused i32x4.relaxed_dot_i8x16_i7x16_add_s: acc + the sums of four
// adjacent 8-bit × 7-bit products, one instruction (x86 with AVX-VNNI: vpdpbusd; elsewhere what
// int8-gemm-relaxed-simd.c spells out: the int16 pair dot, widened and added). The same packing,
// operands and exact integer results as int8-gemm-relaxed-simd.c, which this file includes with
// only DOT replaced: the pairs stay inside int16 (|2 · 127 · 127| < 32 767), so whether an engine
// sums through int16 or not, every result is the exact A·Bᵀ.
//
// V8 11.3 (Node 20) returns 2·dot and drops the accumulator for this instruction: src/int8-kernels.ts
// checks the module on a known product before using it and keeps int8-gemm-relaxed-simd.c's module
// where the answer is wrong.
//
// clang 14 has no builtin for the instruction: the source writes the placeholder v128.bitselect
// (three v128 operands, one result, used nowhere else in this module or its plain twin
// int8-gemm-simd.c) and scripts/build-wasm.mjs rewrites it to i32x4.relaxed_dot_i8x16_i7x16_add_s.
#include <wasm_simd128.h>
#define DOT(acc, x, w) acc = wasm_v128_bitselect(w, x, acc)
#include "int8-gemm-relaxed-simd.c"
