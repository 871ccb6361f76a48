import type { ConformanceCase } from '../conformance-case.js';
import { f32MatMulCases } from './f32-mat-mul-cases.js';
import { fusedAttentionCases } from './fused-attention-cases.js';
import { int8MatMulCases } from './int8-mat-mul-cases.js';

/**
 * The conformance cases of the hand-written kernels, for `runConformance` of
 * `@attnkit/backends/conformance`: `int8MatMul` on each int8 kernel against the exact integer
 * product dequantized in float64, `f32MatMul` on each float32 kernel against the float64 product, and `fusedAttention` on each of its kernels (padding mask, bias,
 * masked query rows, causal mask) against float64 softmax attention. Each tolerance is the
 * float32 rounding bound of the kernel's arithmetic on the case's inputs. A kernel the engine lacks
 * (relaxed SIMD in Node 20) reports `unavailable` with the reason.
 *
 * @example
 * await useBackend('wasm');
 * const results = await runConformance(KERNEL_CONFORMANCE_CASES);
 * console.log(formatConformanceTable(results));
 */
export const KERNEL_CONFORMANCE_CASES: readonly ConformanceCase[] = [...int8MatMulCases, ...f32MatMulCases, ...fusedAttentionCases];
