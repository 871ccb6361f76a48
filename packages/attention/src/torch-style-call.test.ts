import { ones, randomNormal, tensor2d, zeros } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { MultiHeadAttention } from './multi-head-attention.js';

let mha: MultiHeadAttention;
beforeAll(async () => {
  await useBackend('cpu');
  mha = new MultiHeadAttention({ embedDim: 8, numHeads: 2, seed: 1 });
});
afterAll(() => mha.dispose());

// Parity with PyTorch: multi-head-attention.parity.test.ts. Here: its argument checks.
describe('forwardTorch: bad PyTorch-style masks', () => {
  it.each([
    ['keyPaddingMask [B, T] instead of [B, S]', { keyPaddingMask: [2, 5] }, "MultiHeadAttention.forwardTorch: 'keyPaddingMask' must be [B, S] = [2, 6]; received [2, 5]."],
    ['keyPaddingMask int32', { keyPaddingMask: [2, 6, 'int32'] }, "MultiHeadAttention.forwardTorch: 'keyPaddingMask' must be a bool or float32 tensor of rank 2 [B, S]; received int32 tensor of rank 2 [2, 6]."],
    ['attnMask [S, T]', { attnMask: [6, 4] }, "MultiHeadAttention.forwardTorch: 'attnMask' must be [T, S] = [4, 6]; received [6, 4]."],
    ['attnMask [B, T, S] instead of [B·H, T, S]', { attnMask: [2, 4, 6] }, "MultiHeadAttention.forwardTorch: 'attnMask' must be [B·H, T, S] = [4, 4, 6]; received [2, 4, 6]."],
  ] as const)('%s', (_, spec, message) => {
    const [q, kv] = [zeros([2, 4, 8]), zeros([2, 6, 8])];
    const make = (s: readonly (number | string)[]) => {
      const dtype = typeof s[s.length - 1] === 'string' ? (s[s.length - 1] as 'int32') : 'bool';
      return ones(s.filter((d): d is number => typeof d === 'number'), dtype);
    };
    const masks = Object.fromEntries(Object.entries(spec).map(([k, s]) => [k, make(s)]));
    const error = thrown(() => mha.forwardTorch(q, kv, kv, masks));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    [q, kv, ...Object.values(masks)].forEach((t) => t.dispose());
  });

  it('a float attnMask with soft values is added to the scores, as PyTorch adds it', async () => {
    const [q, kv] = [randomNormal([2, 4, 8], 0, 1, 'float32', 1), randomNormal([2, 6, 8], 0, 1, 'float32', 2)];
    const constant = ones([4, 6]); // softmax is shift-invariant: a constant bias changes nothing
    const oneKey = tensor2d(Array.from({ length: 4 }, () => [50, 0, 0, 0, 0, 0])); // +50 on key 0: every query attends to it alone
    const plain = mha.forwardTorch(q, kv, kv);
    const shifted = mha.forwardTorch(q, kv, kv, { attnMask: constant });
    const focused = mha.forwardTorch(q, kv, kv, { attnMask: oneKey });
    expect(maxDifference(await shifted.output.data(), await plain.output.data()).maxAbsDiff).toBeLessThan(1e-6);
    const weights = (await focused.attentionWeights!.array()) as number[][][];
    expect(weights.flat().every((row) => row[0]! > 0.999)).toBe(true);
    [q, kv, constant, oneKey, plain.output, plain.attentionWeights!, shifted.output, shifted.attentionWeights!, focused.output, focused.attentionWeights!].forEach((t) => t.dispose());
  });

  it('a seq-first layer (PyTorch batch_first=False is not this call)', () => {
    const seqFirst = new MultiHeadAttention({ embedDim: 8, numHeads: 2, layout: 'seq-first', seed: 1 });
    const x = zeros([4, 2, 8]);
    expect(thrown(() => seqFirst.forwardTorch(x, x, x)).message).toBe(
      "MultiHeadAttention.forwardTorch: 'layout' must be a 'batch-first' layer (PyTorch batch_first=True); received 'seq-first'. Use forward() with seq-first masks [T, S, B] instead.",
    );
    x.dispose();
    seqFirst.dispose();
  });
});
