// The first `count` (1–4) 32-bit lanes of a vector, loaded from or stored to memory one lane load
// or store at a time. A loop over a small local array (`float lanes[4]; ... out[c] = lanes[c]`)
// is what clang turns into memcpy, and memcpy into `memory.copy`: V8 runs that as a call out of
// the module into its runtime, which cost more than the arithmetic around it when it was made for
// every 2-column tile of a one-row int8 product (four calls per tile).
#ifndef ATTNKIT_LANES_H
#define ATTNKIT_LANES_H
#include <stdint.h>
#include <wasm_simd128.h>

/** The count (0–4) 32-bit values at p in the first lanes, zeros in the rest; nothing past them is read. */
static inline v128_t load_lanes(const void *p, int32_t count) {
  switch (count) {
    case 4: return wasm_v128_load(p);
    case 3: return wasm_v128_load32_lane((const uint8_t *)p + 8, wasm_v128_load64_zero(p), 2);
    case 2: return wasm_v128_load64_zero(p);
    case 1: return wasm_v128_load32_zero(p);
    default: return wasm_i32x4_const_splat(0);
  }
}

/** Stores v's first count (0–4) 32-bit lanes at p; nothing past them is written. */
static inline void store_lanes(void *p, v128_t v, int32_t count) {
  switch (count) {
    case 4: wasm_v128_store(p, v); return;
    case 3: wasm_v128_store64_lane(p, v, 0), wasm_v128_store32_lane((uint8_t *)p + 8, v, 2); return;
    case 2: wasm_v128_store64_lane(p, v, 0); return;
    case 1: wasm_v128_store32_lane(p, v, 0); return;
    default: return;
  }
}
#endif
