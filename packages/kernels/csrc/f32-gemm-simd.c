// Plain wasm SIMD (128-bit) float32 GEMM: a multiply then an add per step, in the order of
// XNNPACK's f32 GEMM (tfjs-wasm's matMul), so the product equals it bit for bit.
#define MADD(a, b, c) wasm_f32x4_add(wasm_f32x4_mul(a, b), c)
#include "f32-gemm.h"
