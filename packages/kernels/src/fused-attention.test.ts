import { ones, randomNormal, sum, tensor, tensor4d, variableGrads, variable, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { fusedAttention } from './fused-attention.js';
import { fusedAttentionReference } from './fused-attention-reference.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { FUSED_ATTENTION_CASES, fusedAttentionProblem, relativeDifference } from './testing/fused-attention-cases.js';

beforeAll(() => useTfjsBackend('cpu'));

describe.each(['cpu', 'wasm'] as const)('fusedAttention on %s', (backend) => {
  beforeAll(() => useTfjsBackend(backend));
  afterAll(() => useTfjsBackend('cpu'));

  it.each(FUSED_ATTENTION_CASES.map((c, i) => [c.label, i] as const))('matches fusedAttentionReference within 1e-6: %s', (_, index) => {
    const c = FUSED_ATTENTION_CASES[index]!;
    const p = fusedAttentionProblem(c, 200 + index);
    const [b, h, t, s, d, dv] = c.sizes;
    const inputs: Tensor[] = [tensor(p.query, [b, h, t, d]), tensor(p.key, [b, h, s, d]), tensor(p.value, [b, h, s, dv])];
    const mask = c.mask === undefined ? undefined : tensor(p.maskValues!, [...c.mask], 'bool');
    const bias = c.bias === undefined ? undefined : tensor(p.biasValues!, [...c.bias]);
    for (const kernel of ['simd', 'js'] as const) {
      const out = fusedAttention(inputs[0]!, inputs[1]!, inputs[2]!, { mask, bias, kernel });
      expect(out.shape).toEqual([b, h, t, dv]);
      expect(relativeDifference(fusedAttentionReference(p), out.dataSync()), kernel).toBeLessThanOrEqual(1e-6);
      out.dispose();
    }
    [...inputs, mask, bias].forEach((x) => x?.dispose());
  });

  it('leaks nothing, with and without mask and bias', async () => {
    const [q, k, v] = [randomNormal([2, 3, 5, 8], 0, 1, 'float32', 1), randomNormal([2, 3, 7, 8], 0, 1, 'float32', 2), randomNormal([2, 3, 7, 8], 0, 1, 'float32', 3)];
    const [mask, bias] = [ones([2, 1, 1, 7], 'bool'), zeros([1, 3, 5, 7])];
    expect(await leaksOf(() => fusedAttention(q, k, v).dispose())).toEqual({ tensors: 0, bytes: 0 });
    expect(await leaksOf(() => fusedAttention(q, k, v, { mask, bias }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [q, k, v, mask, bias].forEach((x) => x.dispose());
  });
});

describe('fusedAttention', () => {
  let [q, k, v] = [] as Tensor[] as [Tensor, Tensor, Tensor];
  beforeAll(() => { [q, k, v] = [zeros([2, 3, 5, 4]), zeros([2, 3, 7, 4]), zeros([2, 3, 7, 6])]; });
  afterAll(() => [q, k, v].forEach((x) => x.dispose()));

  it('returns zeros [B, H, T, Dv] for zero sizes without reading anything', () => {
    const empty = fusedAttention(zeros([0, 3, 5, 4]), zeros([0, 3, 7, 4]), zeros([0, 3, 7, 6]));
    expect(empty.shape).toEqual([0, 3, 5, 6]);
    const noKeys = fusedAttention(ones([1, 1, 2, 4]), zeros([1, 1, 0, 4]), zeros([1, 1, 0, 3]));
    expect(Array.from(noKeys.dataSync())).toEqual([0, 0, 0, 0, 0, 0]);
    [empty, noKeys].forEach((x) => x.dispose());
  });

  it('refuses mismatched shapes, dtypes and non-broadcastable masks and biases with typed errors', () => {
    const keyError = thrown(() => fusedAttention(q, zeros([2, 3, 7, 5]), v));
    expect(keyError).toBeInstanceOf(InvalidArgumentError);
    expect(keyError.message).toBe("fusedAttention: 'key' must be [B, H, S, D] with B, H, D = 2, 3, 4 (from 'query'); received [2, 3, 7, 5].");
    expect(thrown(() => fusedAttention(q, k, zeros([2, 3, 6, 6]))).message).toContain("'value' must be [B, H, S, Dv] with B, H, S = 2, 3, 7");
    expect(thrown(() => fusedAttention(q, k, v, { mask: ones([2, 1, 1, 7]) })).message).toContain("fusedAttention: 'mask' must be a bool tensor of rank 4");
    const maskError = thrown(() => fusedAttention(q, k, v, { mask: ones([2, 1, 1, 6], 'bool') }));
    expect(maskError).toBeInstanceOf(InvalidArgumentError);
    expect(maskError.message).toBe("fusedAttention: 'mask' must be a rank-4 bool tensor broadcastable to [B, H, T, S] = [2, 3, 5, 7] (each dimension 1 or equal); received [2, 1, 1, 6]. A padding mask is [B, 1, 1, S], a causal one [1, 1, T, S].");
    expect(thrown(() => fusedAttention(q, k, v, { bias: zeros([3, 1, 5, 7]) })).message).toContain("'bias' must be a rank-4 float32 tensor broadcastable to [B, H, T, S] = [2, 3, 5, 7]");
    expect(thrown(() => fusedAttention(zeros([2, 3, 5, 4], 'int32'), k, v)).message).toContain("'query' must be a float32 tensor of rank 4");
    expect(thrown(() => fusedAttention(q, k, v, { scale: Number.NaN })).message).toBe("fusedAttention: 'scale' must be a finite number; received NaN.");
    expect(thrown(() => fusedAttention(q, k, v, { scale: null as never })).message).toBe("fusedAttention: 'scale' must be a finite number; received null."); // no number: refused, as a null mask is, not read as absent
    const disposed = zeros([2]);
    disposed.dispose();
    expect(thrown(() => fusedAttention(q, k, v, { scale: disposed as never })).message).toBe("fusedAttention: 'scale' must be a finite number; received a disposed float32 tensor [2].");
    expect(thrown(() => fusedAttention(q, k, v, { kernel: 'gpu' as never })).message).toBe("fusedAttention: 'kernel' must be one of 'simd', 'js'; received string 'gpu'.");
    expect(thrown(() => fusedAttention(q, k, v, { attentionMask: ones([2, 1, 1, 7], 'bool') } as never))).toBeInstanceOf(InvalidArgumentError);
  });

  it('has no gradient: called while tfjs records one, it throws InferenceOnlyError', () => {
    const w = variable(ones([2, 3, 5, 4]));
    const error = thrown(() => variableGrads(() => sum(fusedAttention(w, k, v)) as never));
    expect(error).toBeInstanceOf(InferenceOnlyError);
    expect(error.message).toContain('fusedAttention: has no gradient, and was called while tfjs records gradients');
    w.dispose();
  });

  it('scales by √(1 / D) by default, as scaledDotProductScorer', () => {
    const query = tensor4d([[[[2, 0, 0, 0]]]]);
    const key = tensor4d([[[[1, 0, 0, 0], [0, 0, 0, 0]]]]);
    const value = tensor4d([[[[1], [0]]]]);
    const out = fusedAttention(query, key, value).dataSync()[0]!; // scores 1 and 0
    expect(out).toBeCloseTo(Math.E / (Math.E + 1), 6);
    expect(fusedAttention(query, key, value, { scale: 0 }).dataSync()[0]).toBeCloseTo(0.5, 7);
  });
});
