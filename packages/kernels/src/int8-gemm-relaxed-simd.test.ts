import { describe, expect, it } from 'vitest';
import { expectPassesWithRelaxedSimd, IN_RELAXED_SIMD_CHILD } from './testing/relaxed-simd-child.js';
import { thrown } from '@attnkit/test-utils';
import { int8Kernel } from './int8-kernels.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';
import { expectExactOnAllShapes, expectQuantizerMatches, int8Case, INT8_SHAPES } from './testing/int8-cases.js';
import { WasmInt8Gemm } from './wasm-int8-gemm.js';
import { INT8_GEMM_RELAXED_SIMD_WASM } from './wasm/int8-gemm-relaxed-simd.wasm.js';

// Node 20 validates relaxed SIMD only with --experimental-wasm-relaxed-simd: this file runs twice,
// here (where the kernel must be refused with a typed error) and, from the last test, in a child
// `node --experimental-wasm-relaxed-simd` vitest run (where it must run and be exact). The browser
// test runs it in Chromium, which has relaxed SIMD on.
const CHILD = IN_RELAXED_SIMD_CHILD;
const relaxed = new WasmInt8Gemm('relaxed-simd', INT8_GEMM_RELAXED_SIMD_WASM, 63);
const flagged = process.execArgv.includes('--experimental-wasm-relaxed-simd');

describe('WasmInt8Gemm (relaxed-simd) in this process', () => {
  it('validates exactly when the engine has relaxed SIMD (Node 20: with the flag)', () => {
    // the child must really run the kernel (a worker thread's execArgv may not show the flag)
    expect(relaxed.supported).toBe(CHILD || flagged || Number(process.versions.node.split('.')[0]) >= 22);
  });

  if (relaxed.supported) {
    it('equals int8MatMulReference bit for bit on every shape, A in [-63, 63]', () => {
      expect(expectExactOnAllShapes(relaxed)).toBe(2 * INT8_SHAPES.length);
    });

    it('quantizes float rows to [-63, 63] exactly as quantizeRows does and refuses non-finite x', () => expectQuantizerMatches(relaxed));

    it('is exact over its whole 7-bit range [-64, 63] and clamps A outside it (never implementation-defined)', () => {
      const { b, shape } = int8Case([6, 10, 77], 127, 3);
      const a = Int8Array.from({ length: 6 * 77 }, (_, i) => [-128, -127, -65, -64, 63, 64, 127, 0, 1, -1][i % 10] as number);
      const clamped = a.map((v) => Math.min(63, Math.max(-64, v)));
      expect(Array.from(relaxed.accumulate(a, b, shape))).toEqual(Array.from(int8MatMulReference(clamped, b, shape)));
      expect(Array.from(relaxed.accumulate(a, b, shape))).not.toEqual(Array.from(int8MatMulReference(a, b, shape)));
    });

    it('is what int8Kernel("relaxed-simd") returns', () => expect(int8Kernel('relaxed-simd', 'test').name).toBe('relaxed-simd'));
  } else {
    it('is refused by name with KernelUnavailableError naming the kernels that run', () => {
      const error = thrown(() => int8Kernel('relaxed-simd', 'int8MatMul'));
      expect(error).toBeInstanceOf(KernelUnavailableError);
      expect(error.message).toBe(
        "int8MatMul: the 'relaxed-simd' kernel does not run in this engine (its WebAssembly does not validate); the ones that do: simd, js. Leave kernel unset to use the fastest one here; Node 20 runs relaxed SIMD with node --experimental-wasm-relaxed-simd.",
      );
    });
  }
});

if (!CHILD) {
  describe('WasmInt8Gemm (relaxed-simd) in node --experimental-wasm-relaxed-simd', () => {
    it('passes this file in a child process with the flag', () => {
      expectPassesWithRelaxedSimd('src/int8-gemm-relaxed-simd.test.ts', 5); // supported, exact, quantizer, clamping, int8Kernel: the kernel really ran
    }, 150_000);
  });
}
