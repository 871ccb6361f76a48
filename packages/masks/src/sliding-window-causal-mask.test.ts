import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { causalMask } from './causal-mask.js';
import { slidingWindowCausalMask } from './sliding-window-causal-mask.js';

beforeAll(() => useBackend('cpu'));

describe('slidingWindowCausalMask', () => {
  it('lets each query see itself and the window − 1 keys before it', async () => {
    const mask = slidingWindowCausalMask(5, 5, 3);
    expect(mask.shape).toEqual([1, 1, 5, 5]);
    expect(await mask.array()).toEqual([[[
      [1, 0, 0, 0, 0],
      [1, 1, 0, 0, 0],
      [1, 1, 1, 0, 0],
      [0, 1, 1, 1, 0],
      [0, 0, 1, 1, 1],
    ]]]);
    mask.dispose();
  });

  it('aligns the queries to the end of the keys by default (decoding with a cache) and takes an explicit offset', async () => {
    const step = slidingWindowCausalMask(1, 9, 4);
    expect(await step.array()).toEqual([[[[0, 0, 0, 0, 0, 1, 1, 1, 1]]]]);
    const shifted = slidingWindowCausalMask(2, 4, 2, { offset: 0 });
    expect(await shifted.array()).toEqual([[[[1, 0, 0, 0], [1, 1, 0, 0]]]]);
    [step, shifted].forEach((t) => t.dispose());
  });

  it('is the causal mask when the window covers every key', async () => {
    const [wide, causal] = [slidingWindowCausalMask(4, 6, 6), causalMask(4, 6)];
    expect(await wide.array()).toEqual(await causal.array());
    [wide, causal].forEach((t) => t.dispose());
  });

  it('leaks nothing', async () => expect(await leaksOf(() => slidingWindowCausalMask(4, 4, 2).dispose())).toEqual({ tensors: 0, bytes: 0 }));

  it.each([
    [() => slidingWindowCausalMask(3, 3, 0), "slidingWindowCausalMask: 'slidingWindow' must be an integer ≥ 1; received number 0."],
    [() => slidingWindowCausalMask(0, 3, 2), "slidingWindowCausalMask: 'queryLength' must be an integer ≥ 1; received number 0."],
    [() => slidingWindowCausalMask(3, 3, 2, { offset: 1.5 }), "slidingWindowCausalMask: 'offset' must be an integer; received number 1.5."],
    [() => slidingWindowCausalMask(3, 3, 2, { window: 2 } as never), "slidingWindowCausalMask: 'options' must be an object with only the keys offset; received the unknown key 'window'."],
  ])('refuses bad input with a typed error %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
