import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERF_F32 } from './erf-f32.js';
import { TFJS_FILLS_SOURCE_SHA256, TFJS_FILLS_THREADS_WASM, TFJS_FILLS_WASM } from './wasm/tfjs-fills.wasm.js';
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
    expect(sourceHash(['int8-gemm-simd.c', 'int8-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h', 'rms-norm.h', 'silu-mul.h', 'exp.h'])).toBe(INT8_GEMM_SIMD_SOURCE_SHA256);
    expect(sourceHash(['int8-gemm-relaxed-simd.c', 'int8-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h', 'rms-norm.h', 'silu-mul.h', 'exp.h'])).toBe(INT8_GEMM_RELAXED_SIMD_SOURCE_SHA256);
    expect(sourceHash(['f32-gemm-simd.c', 'f32-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h'])).toBe(F32_GEMM_SIMD_SOURCE_SHA256);
    expect(sourceHash(['f32-gemm-relaxed-simd.c', 'f32-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h'])).toBe(F32_GEMM_RELAXED_SIMD_SOURCE_SHA256);
    expect(sourceHash(['fused-attention.c', 'attention-rows.h', 'exp.h'])).toBe(FUSED_ATTENTION_SOURCE_SHA256);
    expect(sourceHash(['tfjs-fills.c', 'attention-rows.h', 'gelu.h', 'gelu-tanh.h', 'layer-norm.h', 'masked-softmax.h', 'rms-norm.h', 'rotary.h', 'silu-mul.h', 'exp.h'])).toBe(TFJS_FILLS_SOURCE_SHA256);
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
    expect(count(F32_GEMM_RELAXED_SIMD_WASM)).toBe(14); // the 4 x 2 multiply-adds of one step of a tile, and the one-row tile's 2 (as clang 14 unrolls its loop: 6)
    expect(count(F32_GEMM_SIMD_WASM)).toBe(0);
    expect(count(INT8_GEMM_RELAXED_SIMD_WASM) + count(INT8_GEMM_SIMD_WASM) + count(FUSED_ATTENTION_WASM)).toBe(0);
  });

  it("give erf the coefficients of csrc/gelu.h's #define ERF_* lines, which erf_f32x4 uses, each, and src/wasm/erf-coefficients.ts (ERF_F32) copies", () => {
    const header = readFileSync(new URL('../csrc/gelu.h', import.meta.url), 'utf8');
    const defined = (name: string) => Math.fround(Number.parseFloat(header.match(new RegExp(`^#define ${name} (\\S+)f$`, 'm'))?.[1] ?? 'NaN'));
    const f32 = (values: readonly number[]) => values.map((v) => Math.fround(v));
    expect(defined('ERF_C0')).toBe(Math.fround(ERF_F32.c0));
    expect(ERF_F32.a.map((_, i) => defined(`ERF_A${i}`))).toEqual(f32(ERF_F32.a));
    expect(ERF_F32.b.map((_, i) => defined(`ERF_B${i}`))).toEqual(f32(ERF_F32.b));
    expect(ERF_F32.q.map((_, i) => defined(`ERF_Q${i}`))).toEqual(f32(ERF_F32.q));
    const code = header.slice(header.indexOf('static inline v128_t erf_f32x4'), header.indexOf('static inline v128_t gelu_f32x4'));
    const names = ['ERF_C0', ...ERF_F32.a.map((_, i) => `ERF_A${i}`), ...ERF_F32.b.map((_, i) => `ERF_B${i}`), ...ERF_F32.q.map((_, i) => `ERF_Q${i}`)];
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(code))).toEqual([]);
  });

  it('hold the tfjs fills: importing tfjs-wasm\'s memory (plain, and shared for its threaded binary), exporting erf, gelu, geluTanh, layerNorm, maskedSoftmax, rmsNorm, siluMul, rotaryHeads, attentionRows and run_part (the attention rows as a job for the kernel threads)', () => {
    for (const [base64, shared] of [[TFJS_FILLS_WASM, false], [TFJS_FILLS_THREADS_WASM, true]] as const) {
      const module = new WebAssembly.Module(Buffer.from(base64, 'base64'));
      expect(WebAssembly.Module.imports(module)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
      expect(WebAssembly.Module.exports(module).map((e) => e.name)).toEqual(['erf', 'gelu', 'geluTanh', 'layerNorm', 'maskedSoftmax', 'rmsNorm', 'siluMul', 'rotaryHeads', 'attentionRows', 'run_part']);
      const memory = new WebAssembly.Memory({ initial: 2, maximum: 16, shared });
      expect(() => new WebAssembly.Instance(module, { env: { memory } })).not.toThrow();
    }
  });
});
