// Relaxed-SIMD float32 GEMM: f32x4.relaxed_madd per step (one fused multiply-add where the CPU
// has FMA, e.g. vfmadd231ps on x86; a multiply then an add elsewhere): within a rounding per
// step of the plain kernel, and about 1.3x its speed.
//
// clang 14 has no builtin for the instruction: the source writes the placeholder v128.bitselect
// (same operand and result types, three operands in the same order) and scripts/build-wasm.mjs
// rewrites it in the disassembly to f32x4.relaxed_madd, after checking that the plain build of
// the same body (f32-gemm-simd.c) holds no bitselect of its own.
#include <wasm_simd128.h>
#define MADD(a, b, c) wasm_v128_bitselect(a, b, c)
#include "f32-gemm.h"
