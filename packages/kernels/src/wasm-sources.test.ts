import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERF_F32 } from '@attnkit/backends';
import { INT8_GEMM_RELAXED_SIMD_SOURCE_SHA256, INT8_GEMM_RELAXED_SIMD_WASM } from './wasm/int8-gemm-relaxed-simd.wasm.js';
import { INT8_GEMM_SIMD_SOURCE_SHA256, INT8_GEMM_SIMD_WASM } from './wasm/int8-gemm-simd.wasm.js';
import { FUSED_ATTENTION_SOURCE_SHA256, FUSED_ATTENTION_WASM } from './wasm/fused-attention.wasm.js';
import { F32_GEMM_RELAXED_SIMD_SOURCE_SHA256, F32_GEMM_RELAXED_SIMD_WASM } from './wasm/f32-gemm-relaxed-simd.wasm.js';
import { F32_GEMM_SIMD_SOURCE_SHA256, F32_GEMM_SIMD_WASM } from './wasm/f32-gemm-simd.wasm.js';

/** The hash scripts/build-wasm.mjs records: SHA-256 over `name\n<text>\n` of each source. */
function sourceHash(sources: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of sources) hash.update(`${file}\n${readFileSync(new URL(`../csrc/${file}`, import.meta.url), 'utf8')}\n`);
  return hash.digest('hex');
}

describe('the committed wasm modules', () => {
  it('were built from the C sources as they are now (else run pnpm build:wasm and commit src/wasm)', () => {
    expect(sourceHash(['int8-gemm-simd.c', 'int8-gemm.h', 'gelu.h', 'residual-layer-norm.h'])).toBe(INT8_GEMM_SIMD_SOURCE_SHA256);
    expect(sourceHash(['int8-gemm-relaxed-simd.c', 'int8-gemm.h', 'gelu.h', 'residual-layer-norm.h'])).toBe(INT8_GEMM_RELAXED_SIMD_SOURCE_SHA256);
    expect(sourceHash(['f32-gemm-simd.c', 'f32-gemm.h', 'gelu.h', 'residual-layer-norm.h'])).toBe(F32_GEMM_SIMD_SOURCE_SHA256);
    expect(sourceHash(['f32-gemm-relaxed-simd.c', 'f32-gemm.h', 'gelu.h', 'residual-layer-norm.h'])).toBe(F32_GEMM_RELAXED_SIMD_SOURCE_SHA256);
    expect(sourceHash(['fused-attention.c'])).toBe(FUSED_ATTENTION_SOURCE_SHA256);
  });

  it('hold the relaxed dot only in the relaxed module (opcode 0xfd 0x92 0x02 = i16x8.relaxed_dot_i8x16_i7x16_s)', () => {
    const count = (base64: string) => Buffer.from(base64, 'base64').toString('hex').match(/fd9202/g)?.length ?? 0;
    expect(count(INT8_GEMM_RELAXED_SIMD_WASM)).toBeGreaterThanOrEqual(8);
    expect(count(INT8_GEMM_SIMD_WASM)).toBe(0);
    expect(count(FUSED_ATTENTION_WASM)).toBe(0);
    expect(count(F32_GEMM_RELAXED_SIMD_WASM) + count(F32_GEMM_SIMD_WASM)).toBe(0);
  });

  it('hold the relaxed multiply-add only in the relaxed float32 module (opcode 0xfd 0x85 0x02 = f32x4.relaxed_madd)', () => {
    const count = (base64: string) => Buffer.from(base64, 'base64').toString('hex').match(/fd8502/g)?.length ?? 0;
    expect(count(F32_GEMM_RELAXED_SIMD_WASM)).toBe(8); // the 4 x 2 multiply-adds of one step of a tile
    expect(count(F32_GEMM_SIMD_WASM)).toBe(0);
    expect(count(INT8_GEMM_RELAXED_SIMD_WASM) + count(INT8_GEMM_SIMD_WASM) + count(FUSED_ATTENTION_WASM)).toBe(0);
  });

  it("write GELU's erf with the coefficients of the backends' kernels (csrc/gelu.h lists them; the code uses the same literals)", () => {
    const header = readFileSync(new URL('../csrc/gelu.h', import.meta.url), 'utf8');
    const listed = (name: string) => (header.match(new RegExp(`^// ${name} (.+)$`, 'm'))?.[1] ?? '').split(' ').map((v) => Math.fround(Number.parseFloat(v)));
    const f32 = (values: readonly number[]) => values.map((v) => Math.fround(v));
    expect(listed('ERF_C0')).toEqual(f32([ERF_F32.c0]));
    expect(listed('ERF_A')).toEqual(f32(ERF_F32.a));
    expect(listed('ERF_B')).toEqual(f32(ERF_F32.b));
    expect(listed('ERF_Q')).toEqual(f32(ERF_F32.q));
    const code = header.slice(header.indexOf('static inline'));
    const literals = new Set([...code.matchAll(/(-?[0-9.]+(?:e-?[0-9]+)?)f\b/g)].map((m) => Math.fround(Number.parseFloat(m[1] as string))));
    const missing = f32([...ERF_F32.a, ...ERF_F32.b, ...ERF_F32.q, ERF_F32.c0]).filter((v) => !literals.has(v));
    expect(missing).toEqual([]);
  });
});
