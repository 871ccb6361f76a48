import { randomNormal, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { callWithTorchMasks } from './call-with-torch-masks.js';

beforeAll(() => useBackend('cpu'));

describe('callWithTorchMasks', () => {
  it('hands forward a batch-first input with the converted mask and bias, and returns the layout of src', async () => {
    const src = randomNormal([3, 2, 4], 0, 1, 'float32', 1); // [T, B, E]
    const padding = tensor([[false, false, true], [false, false, false]], undefined, 'bool');
    let seen: number[][] = [];
    const out = callWithTorchMasks('f', src, { srcKeyPaddingMask: padding, batchFirst: false }, 2, (x, mask, bias) => {
      seen = [x.shape, mask!.shape, bias === undefined ? [] : bias.shape];
      return x.clone();
    });
    expect(seen).toEqual([[2, 3, 4], [2, 1, 1, 3], []]);
    expect(out.shape).toEqual([3, 2, 4]);
    expect(Array.from(await out.data())).toEqual(Array.from(await src.data()));
    expect(await leaksOf(() => callWithTorchMasks('f', src, { srcKeyPaddingMask: padding, batchFirst: false }, 2, (x) => x.clone()).dispose())).toEqual({ tensors: 0, bytes: 0 });
    const error = thrown(() => callWithTorchMasks('f', src, { batchFirst: 1 as never }, 2, (x) => x));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("f: 'batchFirst' must be a boolean; received number 1.");
    [src, padding, out].forEach((t) => t.dispose());
  });
  it('refuses batchFirst: null, a head count that is no positive integer and a forward that is no function', () => {
    const src = zeros([2, 3, 4]);
    expect(thrown(() => callWithTorchMasks('f', src, { batchFirst: null as never }, 2, (x) => x)).message).toBe("f: 'batchFirst' must be a boolean; received null.");
    expect(thrown(() => callWithTorchMasks('f', src, {}, Number.NaN, (x) => x)).message).toMatch(/^f: 'numHeads' must be an integer ≥ 1; received/);
    const error = thrown(() => callWithTorchMasks('f', src, {}, 2, null as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("f: 'forward' must be a function (x [B, T, E], mask, bias) => [B, T, E]; received null.");
    src.dispose();
  });
});
