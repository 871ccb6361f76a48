import { ones, tensor, tensor3d, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { validateMask } from './validate-mask.js';

const target = { batch: 2, heads: 4, queryLength: 5, keyLength: 7 };
beforeAll(() => useBackend('cpu'));

describe('validateMask', () => {
  it.each([
    [[5, 7], [1, 1, 5, 7]],
    [[1, 7], [1, 1, 1, 7]],
    [[2, 5, 7], [2, 1, 5, 7]],
    [[2, 1, 7], [2, 1, 1, 7]],
    [[2, 4, 5, 7], [2, 4, 5, 7]],
    [[1, 1, 1, 1], [1, 1, 1, 1]],
  ])('places a %j mask as %j (documented rank rules)', (shape, placed) => {
    const mask = ones(shape, 'bool');
    const out = validateMask(mask, target);
    expect(out.shape).toEqual(placed);
    [mask, out].forEach((t) => t.dispose());
  });

  it("reads a seq-first [T, S, B] mask only when asked, moving every value to [B, 1, T, S]", async () => {
    // value at [t, s, b] = 1 iff (t + s + b) is even: a pattern a wrong transpose cannot keep
    const values = Array.from({ length: 2 }, (_, t) => Array.from({ length: 3 }, (_, s) => Array.from({ length: 2 }, (_, b) => Number((t + s + b) % 2 === 0))));
    const mask = tensor3d(values, [2, 3, 2], 'bool');
    const out = validateMask(mask, { batch: 2, heads: 1, queryLength: 2, keyLength: 3, layout: 'seq-first' });
    expect(out.shape).toEqual([2, 1, 2, 3]);
    const placed = (await out.array()) as number[][][][];
    for (let b = 0; b < 2; b++) for (let t = 0; t < 2; t++) for (let s = 0; s < 3; s++) expect(placed[b]![0]![t]![s]).toBe(values[t]![s]![b]);
    [mask, out].forEach((t) => t.dispose());
  });

  it('leaks nothing', async () => {
    const mask = ones([2, 5, 7], 'bool');
    expect(await leaksOf(() => validateMask(mask, target).dispose())).toEqual({ tensors: 0, bytes: 0 });
    mask.dispose();
  });

  const cases: Array<[string, number[], object, string]> = [
    ['a [B, S] padding mask', [2, 7], {}, "validateMask: 'mask' must be broadcastable to [B, H, T, S] = [2, 4, 5, 7] (read as [T, S]; each dimension 1 or equal); received [2, 7], whose dimension 0 (T) is 2, expected 1 or 5. A [B, S] padding mask must be expanded to [B, 1, 1, S]; use paddingMask() or paddingMaskFromIds()."],
    ['a wrong key length', [2, 1, 1, 6], {}, "validateMask: 'mask' must be broadcastable to [B, H, T, S] = [2, 4, 5, 7] (read as [B, H, T, S]; each dimension 1 or equal); received [2, 1, 1, 6], whose dimension 3 (S) is 6, expected 1 or 7."],
    ['a wrong batch', [3, 1, 1, 7], {}, "validateMask: 'mask' must be broadcastable to [B, H, T, S] = [2, 4, 5, 7] (read as [B, H, T, S]; each dimension 1 or equal); received [3, 1, 1, 7], whose dimension 0 (B) is 3, expected 1 or 2."],
    ['a wrong head count', [2, 3, 5, 7], {}, "validateMask: 'mask' must be broadcastable to [B, H, T, S] = [2, 4, 5, 7] (read as [B, H, T, S]; each dimension 1 or equal); received [2, 3, 5, 7], whose dimension 1 (H) is 3, expected 1 or 4."],
    ['a seq-first mask without the layout', [5, 7, 2], {}, "validateMask: 'mask' must be broadcastable to [B, H, T, S] = [2, 4, 5, 7] (read as [B, T, S]; each dimension 1 or equal); received [5, 7, 2], whose dimension 0 (B) is 5, expected 1 or 2. If this is a seq-first [T, S, B] mask (labml's layout), pass layout: 'seq-first'."],
    ['rank 1', [7], {}, "validateMask: 'mask' must be rank 2 [T, S], rank 3 [B, T, S] or rank 4 [B, H, T, S], broadcastable to [B, H, T, S] = [2, 4, 5, 7]; received rank 1 [7]."],
    ['rank 5', [1, 2, 1, 5, 7], {}, "validateMask: 'mask' must be rank 2 [T, S], rank 3 [B, T, S] or rank 4 [B, H, T, S], broadcastable to [B, H, T, S] = [2, 4, 5, 7]; received rank 5 [1, 2, 1, 5, 7]."],
    ['a rank-4 mask with layout seq-first', [2, 1, 5, 7], { layout: 'seq-first' }, "validateMask: 'mask' must be rank 3 [T, S, B] (the seq-first layout), broadcastable to [B, H, T, S] = [2, 4, 5, 7]; received rank 4 [2, 1, 5, 7]."],
    ['a seq-first mask with the wrong batch', [5, 7, 3], { layout: 'seq-first' }, "validateMask: 'mask' must be broadcastable to [B, H, T, S] = [2, 4, 5, 7] (read as [T, S, B]; each dimension 1 or equal); received [5, 7, 3], whose dimension 2 (B) is 3, expected 1 or 2."],
    ['an unknown layout', [5, 7], { layout: 'time-major' }, "validateMask: 'layout' must be 'batch-first' or 'seq-first'; received time-major."],
    ['batch 0', [5, 7], { batch: 0 }, "validateMask: 'batch' must be an integer ≥ 1; received number 0."],
  ];
  it.each(cases)('rejects %s, naming the dimension and the fix', (_, shape, extra, message) => {
    const mask = ones(shape, 'bool');
    const error = thrown(() => validateMask(mask, { ...target, ...extra }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    mask.dispose();
  });

  it('rejects a float mask and names the converters', () => {
    const additive = zeros([2, 1, 1, 7]);
    expect(thrown(() => validateMask(additive, { ...target, caller: 'multiHeadAttention', argument: 'attentionMask' })).message).toMatch(
      /^multiHeadAttention: 'attentionMask' must be a bool tensor; received float32 tensor of rank 4 \[2, 1, 1, 7\]\. .*fromAdditiveMask\(\)/,
    );
    additive.dispose();
    const ints = tensor([[1, 0]], [1, 2], 'int32');
    expect(thrown(() => validateMask(ints, target)).message).toContain('paddingMaskFromIds()');
    ints.dispose();
  });
});

describe('validateMask names', () => {
  it('refuses a caller or argument name that is not a string, and unknown option keys', async () => {
    const mask = ones([2, 1, 1, 7], 'bool');
    const leaks = await leaksOf(() => {
      const error = thrown(() => validateMask(mask, { ...target, caller: Symbol() as never }));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe("validateMask: 'caller' must be a string (the name errors give); received symbol.");
      expect(thrown(() => validateMask(mask, { ...target, queryLenght: 5 } as never)).message).toMatch(/^validateMask: 'options' must be an object with only the keys .*; received the unknown key 'queryLenght'\. Did you mean 'queryLength'\?$/);
    });
    expect(leaks.tensors).toBe(0);
    mask.dispose();
  });
});
