import { fill, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { fromTorchMasks } from './from-torch-masks.js';

beforeAll(() => useBackend('cpu'));
const sizes = { batch: 2, numHeads: 2, queryLength: 2, keyLength: 3 };

describe('fromTorchMasks', () => {
  it('turns a bool key padding mask (true = padding) and a soft float attn_mask into a mask and a bias', async () => {
    const keyPaddingMask = tensor([[false, false, true], [false, false, false]], undefined, 'bool');
    const attnMask = tensor([[0, -0.5, 0], [-Infinity, 0, 0.25]]);
    const { mask, bias } = fromTorchMasks('f', { keyPaddingMask, attnMask }, sizes);
    expect(mask!.shape).toEqual([2, 1, 2, 3]);
    expect(await mask!.array()).toEqual([[[[1, 1, 0], [0, 1, 0]]], [[[1, 1, 1], [0, 1, 1]]]]);
    expect(bias!.shape).toEqual([1, 1, 2, 3]);
    expect(Array.from(await bias!.data())).toEqual([0, -0.5, 0, 0, 0, 0.25]);
    expect(await leaksOf(() => Object.values(fromTorchMasks('f', { keyPaddingMask, attnMask }, sizes)).forEach((t) => t?.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    [keyPaddingMask, attnMask, mask!, bias!].forEach((t) => t.dispose());
  });

  it('keeps the sum of two large negative float masks at the fill value (never past half-float range)', async () => {
    const keyPaddingMask = fill([2, 3], -3.4e38);
    const attnMask = fill([2, 3], -3.4e38);
    const { mask, bias } = fromTorchMasks('f', { keyPaddingMask, attnMask }, sizes);
    expect(Math.min(...Array.from(await bias!.data()))).toBe(-1e9);
    [keyPaddingMask, attnMask, mask!, bias!].forEach((t) => t.dispose());
  });

  it('refuses a float mask of only 0 and 1 (a keep/pad mask given as floats would block nothing), unless additiveBinaryMasks says so', async () => {
    const keep = tensor([[1, 1, 0], [1, 1, 1]]); // Hugging Face style: 1 = keep
    const error = thrown(() => fromTorchMasks('f', { keyPaddingMask: keep }, sizes));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^f: 'keyPaddingMask' must be a bool mask \(true = padding\) or a float mask added to the scores .*received a float32 mask of only 0 and 1 \(both present\), which PyTorch adds to the scores.*additiveBinaryMasks: true/);
    const causal = tensor([[0, 1, 1], [0, 0, 1]]);
    expect(thrown(() => fromTorchMasks('f', { attnMask: causal }, sizes)).message).toMatch(/^f: 'attnMask' must be a bool mask \(true = blocked\)/);
    expect(thrown(() => fromTorchMasks('f', { attnMask: causal, additiveBinaryMasks: 'yes' as never }, sizes))).toBeInstanceOf(InvalidArgumentError);
    expect(await leaksOf(() => { thrown(() => fromTorchMasks('f', { keyPaddingMask: keep, attnMask: causal }, sizes)); })).toEqual({ tensors: 0, bytes: 0 });
    const { mask, bias } = fromTorchMasks('f', { keyPaddingMask: keep, additiveBinaryMasks: true }, sizes); // taken as PyTorch takes it: + 1
    expect(mask!.shape).toEqual([2, 1, 1, 3]);
    expect(Array.from(await bias!.data())).toEqual([1, 1, 0, 1, 1, 1]);
    const zerosOnly = zeros([2, 3]); // all zeros: a plain "no mask" additive mask, accepted
    const accepted = fromTorchMasks('f', { keyPaddingMask: zerosOnly }, sizes);
    const onesOnly = tensor([[1, 1, 1], [1, 1, 1]]); // all ones: a constant shift, the same either way, accepted
    const acceptedOnes = fromTorchMasks('f', { attnMask: onesOnly }, sizes);
    [keep, causal, mask!, bias!, zerosOnly, accepted.mask!, accepted.bias!, onesOnly, acceptedOnes.mask, acceptedOnes.bias].forEach((t) => t?.dispose());
  });

  it("places a 2-D attn_mask alone as [1, 1, T, S], so B == T is never mistaken for [B, S] downstream", async () => {
    const attnMask = tensor([[false, true, true], [false, false, true]], undefined, 'bool'); // causal-like, true = blocked
    const { mask } = fromTorchMasks('f', { attnMask }, sizes); // batch 2 == queryLength 2
    expect(mask!.shape).toEqual([1, 1, 2, 3]);
    expect(await mask!.array()).toEqual([[[[1, 0, 0], [1, 1, 0]]]]);
    [attnMask, mask!].forEach((t) => t.dispose());
  });

  it('names the wrong shape', () => {
    const wrong = zeros([3, 2]);
    const error = thrown(() => fromTorchMasks('f', { attnMask: wrong }, sizes));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("f: 'attnMask' must be [T, S] = [2, 3]; received [3, 2].");
    expect(thrown(() => fromTorchMasks('f', { keyPaddingMask: wrong }, sizes)).message).toBe("f: 'keyPaddingMask' must be [B, S] = [2, 3]; received [3, 2].");
    wrong.dispose();
  });
  it('refuses sizes that are no integers, naming the size, before reading a mask', () => {
    const padding = zeros([2, 5], 'bool');
    const error = thrown(() => fromTorchMasks('f', { keyPaddingMask: padding }, {} as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("fromTorchMasks: 'sizes.batch' must be an integer ≥ 0; received undefined.");
    padding.dispose();
  });
});
