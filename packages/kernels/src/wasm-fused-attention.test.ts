import { describe, expect, it } from 'vitest';
import { fusedAttentionKernel, fusedAttentionKernels } from './fused-attention-kernels.js';
import { fusedAttentionReference } from './fused-attention-reference.js';
import { expectKernelMatchesReference, fusedAttentionProblem, FUSED_ATTENTION_CASES } from './testing/fused-attention-cases.js';

describe('the wasm fused attention kernel', () => {
  it('runs in Node 20 (wasm SIMD128) and is preferred', () => {
    expect(fusedAttentionKernels()).toEqual({ supported: ['simd', 'js'], preferred: 'simd' });
  });

  it('is within 1e-6 (relative to the largest output) of fusedAttentionReference on every case, fully masked rows exactly 0', () => {
    expect(expectKernelMatchesReference(fusedAttentionKernel('simd', 'test'))).toBe(FUSED_ATTENTION_CASES.length);
  });

  it('gives the same numbers on a second call with smaller sizes (the module memory is reused)', () => {
    const kernel = fusedAttentionKernel('simd', 'test');
    for (const index of [9, 0, 8, 2]) {
      const problem = fusedAttentionProblem(FUSED_ATTENTION_CASES[index]!, 5);
      expect(Array.from(kernel.run(problem))).toEqual(Array.from(kernel.run(problem)));
    }
  });

  it('gives NaN rows for a NaN among the allowed scores, ignores one among blocked scores, zeros for rows of only −∞', () => {
    const problem = fusedAttentionProblem({ label: '', sizes: [1, 1, 3, 5, 4, 4], mask: [1, 1, 3, 5] }, 1);
    const bias = new Float32Array(15);
    bias[0] = Number.NaN; // row 0: allowed NaN
    bias.fill(-Infinity, 10, 15); // row 2: only −∞
    const mask = new Uint8Array(15).fill(1);
    mask[5] = 0;
    bias[5] = Number.NaN; // row 1: NaN where blocked
    const inputs = { ...problem, mask: { values: mask, strides: [0, 0, 5] as const }, bias: { values: bias, strides: [0, 0, 5] as const } };
    const out = fusedAttentionKernel('simd', 'test').run(inputs);
    expect(Array.from(out.subarray(0, 4)).every(Number.isNaN)).toBe(true);
    expect(Array.from(out.subarray(4, 8)).some(Number.isNaN)).toBe(false);
    expect(Array.from(out.subarray(8))).toEqual([0, 0, 0, 0]);
    expect(Array.from(out.subarray(4, 8))).toEqual(Array.from(out.subarray(4, 8)));
    const want = fusedAttentionReference(inputs);
    for (let i = 4; i < 8; i++) expect(Math.abs((out[i] as number) - (want[i] as number))).toBeLessThan(1e-6);
  });
});
