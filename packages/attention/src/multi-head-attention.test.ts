import { div, memory, randomNormal, reshape, sum, tidy, transpose, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { StateDictError } from '@attnkit/nn';
import { causalMask, mergeMasks, paddingMask } from '@attnkit/masks';
import { AdditiveScorer } from '@attnkit/scorers';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { MultiHeadAttention } from './multi-head-attention.js';

beforeAll(() => useBackend('cpu'));

async function close(a: Tensor, b: Tensor): Promise<number> {
  return maxDifference(await a.data(), await b.data()).maxAbsDiff;
}

describe('MultiHeadAttention.forward', () => {
  it('defaults to self-attention and returns weights only when asked, per head or averaged', async () => {
    const mha = new MultiHeadAttention({ embedDim: 12, numHeads: 3, seed: 1 });
    const x = randomNormal([2, 5, 12], 0, 1, 'float32', 2);
    const selfDefault = mha.forward(x);
    const explicit = mha.forward(x, x, x, { returnWeights: 'per-head' });
    const averaged = mha.forward(x, x, x, { returnWeights: 'averaged' });
    expect(selfDefault.attentionWeights).toBeUndefined();
    expect(await close(selfDefault.output, explicit.output)).toBe(0);
    expect(explicit.attentionWeights?.shape).toEqual([2, 3, 5, 5]);
    expect(averaged.attentionWeights?.shape).toEqual([2, 5, 5]);
    const meanOfHeads = tidy(() => div(sum(explicit.attentionWeights!, 1), 3));
    expect(await close(averaged.attentionWeights!, meanOfHeads)).toBeLessThan(1e-7);
    [x, selfDefault.output, explicit.output, explicit.attentionWeights!, averaged.output, averaged.attentionWeights!, meanOfHeads].forEach((t) => t.dispose());
    mha.dispose();
  });

  it("gives the same numbers in the seq-first layout ([T, B, E], masks [T, S, B])", async () => {
    const weights = new MultiHeadAttention({ embedDim: 8, numHeads: 2, seed: 3 });
    const seqFirst = new MultiHeadAttention({ embedDim: 8, numHeads: 2, layout: 'seq-first' }, weights.stateDict());
    const x = randomNormal([3, 4, 8], 0, 1, 'float32', 4); // [B, T, E]
    const mask = mergeMasks(paddingMask([4, 2, 3], 4), causalMask(4, 4))!; // [B, 1, T, S]
    const batchFirst = weights.forward(x, x, x, { attentionMask: mask, returnWeights: 'per-head' });
    const xT = transpose(x, [1, 0, 2]); // [T, B, E]
    const maskT = tidy(() => transpose(reshape(mask, [3, 4, 4]), [1, 2, 0])); // [B, T, S] -> [T, S, B]
    const other = seqFirst.forward(xT, xT, xT, { attentionMask: maskT, returnWeights: 'per-head' });
    expect(other.output.shape).toEqual([4, 3, 8]);
    const back = transpose(other.output, [1, 0, 2]);
    expect(await close(back, batchFirst.output)).toBeLessThan(1e-6);
    expect(await close(other.attentionWeights!, batchFirst.attentionWeights!)).toBeLessThan(1e-7);
    [x, mask, xT, maskT, back, batchFirst.output, batchFirst.attentionWeights!, other.output, other.attentionWeights!].forEach((t) => t.dispose());
    weights.dispose();
    seqFirst.dispose();
  });

  it('takes any scorer, per head (here additive over D = 4)', () => {
    const scorer = new AdditiveScorer({ queryDim: 4, keyDim: 4, hiddenDim: 5, seed: 9 });
    const mha = new MultiHeadAttention({ embedDim: 8, numHeads: 2, scorer, seed: 1 });
    const q = randomNormal([2, 3, 8], 0, 1, 'float32', 5);
    const kv = randomNormal([2, 6, 8], 0, 1, 'float32', 6);
    const { output, attentionWeights } = mha.forward(q, kv, kv, { returnWeights: 'per-head' });
    expect([output.shape, attentionWeights?.shape]).toEqual([[2, 3, 8], [2, 2, 3, 6]]);
    [q, kv, output, attentionWeights!].forEach((t) => t.dispose());
    mha.dispose();
    scorer.dispose();
  });

  it('takes a complete set of PyTorch-named weights or none, naming what is missing or unexpected, leaving no tensor', () => {
    const w = zeros([36, 12]);
    const before = memory().numTensors;
    const error = thrown(() => new MultiHeadAttention({ embedDim: 12, numHeads: 3 }, { in_proj_weight: w, 'out_proj.weigth': w }));
    expect(error).toBeInstanceOf(StateDictError);
    expect(error.message).toBe(
      'MultiHeadAttention: the state dict does not fit the module. 3 missing: in_proj_bias, out_proj.weight, out_proj.bias. 1 unexpected: out_proj.weigth. For its config, this MultiHeadAttention has in_proj_weight [36, 12], in_proj_bias [36], out_proj.weight [12, 12], out_proj.bias [12].',
    );
    expect(thrown(() => new MultiHeadAttention({ embedDim: 12, numHeads: 3, weights: { in_proj_weight: w } } as never)).message).toBe(
      "MultiHeadAttention: 'config' must be an object with only the keys embedDim, numHeads, keyDim, valueDim, bias, dropout, scorer, projections, layout, seed; received the unknown key 'weights'.",
    );
    expect(memory().numTensors).toBe(before);
    w.dispose();
  });

  it('leaks nothing across 100 calls, with masks and weights, fused and separate projections', async () => {
    const fused = new MultiHeadAttention({ embedDim: 16, numHeads: 4, seed: 1 });
    const separate = new MultiHeadAttention({ embedDim: 16, numHeads: 4, keyDim: 10, valueDim: 6, seed: 2 });
    const x = randomNormal([2, 7, 16], 0, 1, 'float32', 3);
    const k = randomNormal([2, 5, 10], 0, 1, 'float32', 4);
    const v = randomNormal([2, 5, 6], 0, 1, 'float32', 5);
    const mask = paddingMask([7, 3], 7);
    const keyMask = paddingMask([5, 2], 5);
    const before = memory();
    for (let i = 0; i < 100; i++) {
      const a = fused.forward(x, x, x, { attentionMask: mask, returnWeights: i % 2 === 0 ? 'averaged' : 'none' });
      const b = separate.forward(x, k, v, { attentionMask: keyMask, returnWeights: 'per-head' });
      [a.output, a.attentionWeights, b.output, b.attentionWeights].forEach((t) => t?.dispose());
    }
    expect([memory().numTensors - before.numTensors, memory().numBytes - before.numBytes]).toEqual([0, 0]);
    expect(await leaksOf(() => { fused.dispose(); separate.dispose(); })).toEqual({ tensors: -(4 + 6), bytes: -4 * (3 * 16 * 16 + 3 * 16 + 16 * 16 + 16) - 4 * (16 * 16 + 16 * 10 + 16 * 6 + 3 * 16 + 16 * 16 + 16) });
    [x, k, v, mask, keyMask].forEach((t) => t.dispose());
  });
});

describe('MultiHeadAttention.forward options', () => {
  it.each([
    [() => null, "MultiHeadAttention.forward: 'options' must be an options object; received null."],
    [(m: Tensor) => ({ mask: m }), "MultiHeadAttention.forward: 'options' must be an object with only the keys attentionMask, attentionBias, returnWeights, training, seed; received the unknown key 'mask'. Did you mean 'attentionMask'?"],
    [() => ({ training: 1 }), "MultiHeadAttention.forward: 'training' must be true or false; received number 1."],
  ] as const)('refuses bad call options with a typed error, leaking nothing (%#)', async (options, message) => {
    const mha = new MultiHeadAttention({ embedDim: 4, numHeads: 2, seed: 1 });
    const x = zeros([1, 3, 4]);
    const m = paddingMask([2], 3);
    const leaks = await leaksOf(() => {
      const error = thrown(() => mha.forward(x, undefined, undefined, options(m) as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
    [x, m].forEach((t) => t.dispose());
    mha.dispose();
  });

  it('forwardTorch refuses non-boolean flags and unknown keys', async () => {
    const mha = new MultiHeadAttention({ embedDim: 4, numHeads: 2, seed: 1 });
    const x = zeros([1, 3, 4]);
    const leaks = await leaksOf(() => {
      const error = thrown(() => mha.forwardTorch(x, x, x, { needWeights: 'no' } as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe("MultiHeadAttention.forwardTorch: 'needWeights' must be true or false; received string 'no'.");
      expect(thrown(() => mha.forwardTorch(x, x, x, { key_padding_mask: x } as never)).message).toBe(
        "MultiHeadAttention.forwardTorch: 'options' must be an object with only the keys keyPaddingMask, attnMask, additiveBinaryMasks, needWeights, averageAttnWeights; received the unknown key 'key_padding_mask'. Did you mean 'keyPaddingMask'?",
      );
      expect(thrown(() => mha.forwardTorch(x, x, x, null as never))).toBeInstanceOf(InvalidArgumentError);
    });
    expect(leaks.tensors).toBe(0);
    x.dispose();
    mha.dispose();
  });
});
