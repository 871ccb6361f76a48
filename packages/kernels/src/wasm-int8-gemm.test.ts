import { describe, expect, it } from 'vitest';
import { ResourceLimitError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import { expectExactOnAllShapes, expectQuantizerMatches, int8Case, INT8_SHAPES } from './testing/int8-cases.js';
import { WasmInt8Gemm } from './wasm-int8-gemm.js';
import { INT8_GEMM_SIMD_WASM } from './wasm/int8-gemm-simd.wasm.js';

const simd = new WasmInt8Gemm('simd', INT8_GEMM_SIMD_WASM, 127);

describe('WasmInt8Gemm (simd)', () => {
  it('validates in this engine (wasm SIMD128 is on in Node ≥ 16 and every current browser)', () => expect(simd.supported).toBe(true));

  it('equals int8MatMulReference bit for bit on every shape: int32 accumulators and float32 outputs', () => {
    expect(expectExactOnAllShapes(simd)).toBe(2 * INT8_SHAPES.length);
  });

  it('quantizes float rows exactly as quantizeRows does (ties, tails, tiny and huge rows) and refuses non-finite x', () => expectQuantizerMatches(simd));

  it('stays exact across calls that grow its memory and calls that reuse it (larger, then smaller)', () => {
    for (const dims of [[300, 700, 1024], [3, 5, 9], [1024, 64, 384]] as const) {
      const { a, b, shape } = int8Case(dims, 127, 7);
      expect(Array.from(simd.accumulate(a, b, shape))).toEqual(Array.from(int8MatMulReference(a, b, shape)));
    }
  });

  it('gives exactly ±127·127·K at the extremes (no saturation anywhere)', () => {
    const depth = 4096;
    const a = new Int8Array(depth).fill(-127);
    const b = Int8Array.from({ length: 2 * depth }, (_, i) => (i < depth ? 127 : -127));
    expect(Array.from(simd.accumulate(a, b, { rows: 1, cols: 2, depth }))).toEqual([-127 * 127 * depth, 127 * 127 * depth]);
  });

  it('touches no memory for zero-size products: the raw export returns before reading its pointers', async () => {
    const { instance } = await WebAssembly.instantiate(Uint8Array.from(atob(INT8_GEMM_SIMD_WASM), (c) => c.charCodeAt(0)));
    const kernel = instance.exports as unknown as { int8_gemm: (...args: number[]) => void; int8_gemm_i32: (...args: number[]) => void };
    const far = 0x7ff0_0000; // far past the end of the memory: any access would trap
    expect(() => kernel.int8_gemm(far, far, 0, 5, 7, far, far, far, far, far)).not.toThrow();
    expect(() => kernel.int8_gemm_i32(far, far, 5, 0, 7, far, far)).not.toThrow();
    expect(() => kernel.int8_gemm_i32(far, far, 1, 1, 7, far, far)).toThrow(WebAssembly.RuntimeError); // the check can fail
  });

  it('refuses a product whose buffers exceed what the kernel addresses, before allocating', () => {
    const error = thrown(() => simd.accumulate(new Int8Array(0), new Int8Array(0), { rows: 40_000, cols: 40_000, depth: 1 }));
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect(error.message).toMatch(/^int8MatMul: the buffers of an int8 \[40000, 1\] x \[40000, 1\]ᵀ product need 6\.0 GiB, more than the 2\.0 GiB the simd kernel allows \(the kernels address at most 2 GiB\)\. Split the rows into smaller batches\.$/);
  });
});
