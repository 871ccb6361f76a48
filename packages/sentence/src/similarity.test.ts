import { tensor2d, type Tensor2D } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { similarity } from './similarity.js';

beforeAll(() => useBackend('cpu'));
const a = () => tensor2d([[3, 4], [1, 0]]);
const b = () => tensor2d([[0, 2], [3, 4], [-1, 0]]);

describe('similarity: every row of a against every row of b', () => {
  it.each<[Parameters<typeof similarity>[2], number[][]]>([
    ['cosine', [[0.8, 1, -0.6], [0, 0.6, -1]]],
    ['dot', [[8, 25, -3], [0, 3, -1]]],
    ['euclidean', [[-Math.hypot(3, 2), 0, -Math.hypot(4, 4)], [-Math.hypot(1, 2), -Math.hypot(2, 4), -2]]],
    ['manhattan', [[-5, 0, -8], [-3, -6, -2]]],
  ])('%s (higher is more similar)', (fn, expected) => {
    const out = similarity(a(), b(), fn).arraySync() as number[][];
    out.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]![j]!, 5)));
  });

  it('is a Tensor2D [N, M], so array() gives number[][]', async () => {
    const [x, y] = [a(), b()];
    const scores = similarity(x, y);
    expectTypeOf(scores).toEqualTypeOf<Tensor2D>();
    expectTypeOf(await scores.array()).toEqualTypeOf<number[][]>();
    expect(scores.shape).toEqual([2, 3]);
    [x, y, scores].forEach((t) => t.dispose());
  });

  it('leaks no tensor', async () => {
    const [x, y] = [a(), b()];
    for (const fn of ['cosine', 'dot', 'euclidean', 'manhattan'] as const) expect(await leaksOf(() => similarity(x, y, fn).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it('rejects rows of different widths and unknown functions', () => {
    expect(thrown(() => similarity(a(), tensor2d([[1, 2, 3]]))).message).toBe("similarity: 'b' must be rows of width E = 2 like 'a'; received [1, 3].");
    const error = thrown(() => similarity(a(), b(), 'jaccard' as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe('similarity: \'fn\' must be \'cosine\', \'dot\', \'euclidean\', \'manhattan\'; received string \'jaccard\'.');
  });
});
