import { describe, expect, it } from 'vitest';
import { expectPassesWithRelaxedSimd, IN_RELAXED_SIMD_CHILD } from './testing/relaxed-simd-child.js';
import { thrown } from '@attnkit/test-utils';
import { f32MatMul64 } from './f32-mat-mul64.js';
import { f32Kernel } from './f32-kernels.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';
import { seededNormals } from './testing/fused-attention-cases.js';
import { WasmF32Gemm } from './wasm-f32-gemm.js';
import { F32_GEMM_RELAXED_SIMD_WASM } from './wasm/f32-gemm-relaxed-simd.wasm.js';

// Node 20 validates relaxed SIMD only with --experimental-wasm-relaxed-simd: this file runs twice,
// here (where the kernel must be refused with a typed error) and, from the last test, in a child
// `node --experimental-wasm-relaxed-simd` vitest run (where it must run within the rounding bound).
// The browser tests run it in Chromium, which has relaxed SIMD on.
const CHILD = IN_RELAXED_SIMD_CHILD;
const relaxed = new WasmF32Gemm('relaxed-simd', F32_GEMM_RELAXED_SIMD_WASM);
const flagged = process.execArgv.includes('--experimental-wasm-relaxed-simd');
const SHAPES: ReadonlyArray<readonly [number, number, number]> = [[1, 1, 1], [5, 23, 37], [13, 131, 77], [130, 385, 384]]; // [N, M, K]

describe('WasmF32Gemm (relaxed-simd) in this process', () => {
  it('validates exactly when the engine has relaxed SIMD (Node 20: with the flag)', () => {
    expect(relaxed.supported).toBe(CHILD || flagged || Number(process.versions.node.split('.')[0]) >= 22);
  });

  if (relaxed.supported) {
    it.each(SHAPES)('is within the float32 rounding bound of the float64 product ([N, M, K] = [%i, %i, %i])', (rows, cols, depth) => {
      const x = seededNormals(rows * depth, rows + 1);
      const weight = seededNormals(cols * depth, cols + 2);
      const bias = seededNormals(cols, depth + 3);
      const reference = f32MatMul64(x, rows, weight, cols, depth, bias);
      const got = relaxed.multiply({ read: () => x, weight: () => weight, bias, rows, cols, depth, activation: undefined, residualLayerNorm: undefined, inPlace: false, caller: 'test' });
      const error = Math.max(...Array.from(got, (v, i) => Math.abs(v - (reference.values[i] as number))));
      expect(error).toBeLessThanOrEqual(reference.float32Bound);
    });

    it('is what f32Kernel("relaxed-simd") returns', () => expect(f32Kernel('relaxed-simd', 'test').name).toBe('relaxed-simd'));
  } else {
    it('is refused by name with KernelUnavailableError naming the kernels that run', () => {
      const error = thrown(() => f32Kernel('relaxed-simd', 'f32MatMul'));
      expect(error).toBeInstanceOf(KernelUnavailableError);
      expect(error.message).toBe(
        "f32MatMul: the 'relaxed-simd' kernel does not run in this engine (its WebAssembly does not validate); the ones that do: simd. Leave kernel unset to use the fastest one here; Node 20 runs relaxed SIMD with node --experimental-wasm-relaxed-simd.",
      );
    });
  }
});

if (!CHILD) {
  describe('WasmF32Gemm (relaxed-simd) in node --experimental-wasm-relaxed-simd', () => {
    it('passes this file in a child process with the flag', () => {
      expectPassesWithRelaxedSimd('src/f32-gemm-relaxed-simd.test.ts', 6); // supported, four shapes, f32Kernel: the kernel really ran
    }, 150_000);
  });
}
