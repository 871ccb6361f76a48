import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { slidingWindowMask } from './sliding-window-mask.js';

beforeAll(() => useBackend('cpu'));

describe('slidingWindowMask', () => {
  it('lets each position see itself and halfWindow positions on each side', async () => {
    const mask = slidingWindowMask(5, 1);
    expect(mask.shape).toEqual([1, 1, 5, 5]);
    expect(await mask.array()).toEqual([[[
      [1, 1, 0, 0, 0],
      [1, 1, 1, 0, 0],
      [0, 1, 1, 1, 0],
      [0, 0, 1, 1, 1],
      [0, 0, 0, 1, 1],
    ]]]);
    mask.dispose();
  });

  it('is |t − s| ≤ halfWindow everywhere (transformers: sliding_window_bidirectional_overlay)', async () => {
    for (const [length, half] of [[10, 2], [7, 0], [4, 9]] as const) {
      const mask = slidingWindowMask(length, half);
      const rows = (await mask.array())[0]![0]!;
      rows.forEach((row, t) => row.forEach((keep, s) => expect(keep, `${length}, ${half}: [${t}, ${s}]`).toBe(Math.abs(t - s) <= half ? 1 : 0)));
      mask.dispose();
    }
  });

  it('leaks nothing', async () => expect(await leaksOf(() => slidingWindowMask(4, 2).dispose())).toEqual({ tensors: 0, bytes: 0 }));

  it.each([
    [() => slidingWindowMask(3, -1), "slidingWindowMask: 'halfWindow' must be an integer ≥ 0; received number -1."],
    [() => slidingWindowMask(0, 2), "slidingWindowMask: 'length' must be an integer ≥ 1; received number 0."],
    [() => slidingWindowMask(3, 1.5), "slidingWindowMask: 'halfWindow' must be an integer ≥ 0; received number 1.5."],
  ])('refuses bad input with a typed error %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
