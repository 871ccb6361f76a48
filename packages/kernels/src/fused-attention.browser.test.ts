import { tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { leaksOf } from '@attnkit/test-utils';
import { fusedAttention } from './fused-attention.js';
import { fusedAttentionKernel, fusedAttentionKernels } from './fused-attention-kernels.js';
import { fusedAttentionReference } from './fused-attention-reference.js';
import { expectKernelMatchesReference, FUSED_ATTENTION_CASES, fusedAttentionProblem, relativeDifference } from './testing/fused-attention-cases.js';

describe('fused attention in Chromium', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it('runs the wasm SIMD kernel, within 1e-6 of fusedAttentionReference on every case', () => {
    expect(fusedAttentionKernels().preferred).toBe('simd');
    expect(expectKernelMatchesReference(fusedAttentionKernel('simd', 'test'))).toBe(FUSED_ATTENTION_CASES.length);
  });

  // wasm here may be the threaded build (cross-origin isolated pages): its heap is a SharedArrayBuffer
  it.each(['cpu', 'wasm', 'webgl'] as const)('fusedAttention gives the reference numbers on %s, leaking nothing', async (backend) => {
    await useTfjsBackend(backend);
    const c = FUSED_ATTENTION_CASES[1]!; // mask [1, 1, T, S], bias [1, H, T, S]
    const p = fusedAttentionProblem(c, 9);
    const [b, h, t, s, d, dv] = c.sizes;
    const inputs: Tensor[] = [tensor(p.query, [b, h, t, d]), tensor(p.key, [b, h, s, d]), tensor(p.value, [b, h, s, dv]), tensor(p.maskValues!, [...c.mask!], 'bool'), tensor(p.biasValues!, [...c.bias!])];
    const [q, k, v, mask, bias] = inputs as [Tensor, Tensor, Tensor, Tensor, Tensor];
    const out = fusedAttention(q, k, v, { mask, bias });
    expect(relativeDifference(fusedAttentionReference(p), await out.data())).toBeLessThanOrEqual(1e-6);
    expect(await leaksOf(() => fusedAttention(q, k, v, { mask, bias }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [...inputs, out].forEach((x) => x.dispose());
  });
});
