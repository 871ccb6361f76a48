import { beforeAll, describe, expect, it } from 'vitest';
import { randomNormal, zeros } from '@tensorflow/tfjs-core';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { relativeKeyScores } from './relative-key-scores.js';

beforeAll(() => useBackend('cpu'));

/** transformers' einsum, loop by loop: q[b,h,l]·E[l−r+M−1] (+ k[b,h,r]·E[l−r+M−1]). */
function naive(q: Float32Array, k: Float32Array, e: Float32Array, [b, h, t, d]: number[], m: number, withKey: boolean): Float64Array {
  const out = new Float64Array(b! * h! * t! * t!);
  for (let bh = 0; bh < b! * h!; bh++) {
    for (let l = 0; l < t!; l++) {
      for (let r = 0; r < t!; r++) {
        const row = (l - r + m - 1) * d!;
        let sum = 0;
        for (let i = 0; i < d!; i++) sum += q[(bh * t! + l) * d! + i]! * e[row + i]! + (withKey ? k[(bh * t! + r) * d! + i]! * e[row + i]! : 0);
        out[(bh * t! + l) * t! + r] = sum;
      }
    }
  }
  return out;
}

describe('relativeKeyScores', () => {
  it.each([['relative_key', false], ['relative_key_query', true]] as const)('%s equals the einsum of transformers, for T < M and T = M, and leaks nothing', async (type, withKey) => {
    for (const length of [5, 7]) {
      const shape = [2, 3, length, 4];
      const [q, k, table] = [randomNormal(shape, 0, 1, 'float32', 1), randomNormal(shape, 0, 1, 'float32', 2), randomNormal([13, 4], 0, 1, 'float32', 3)]; // M = 7
      const scores = relativeKeyScores(q, k, table, type);
      expect(scores.shape).toEqual([2, 3, length, length]);
      const expected = naive(await q.data() as Float32Array, await k.data() as Float32Array, await table.data() as Float32Array, shape, 7, withKey);
      expect(maxDifference(await scores.data(), expected).maxAbsDiff).toBeLessThan(1e-5);
      expect(await leaksOf(() => relativeKeyScores(q, k, table, type).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [q, k, table, scores].forEach((t) => t.dispose());
    }
  });

  it('refuses a sequence past the distance table, a table of another width and an unknown type, with typed errors', () => {
    const [q, table, narrow, wide] = [zeros([1, 2, 8, 4]), zeros([13, 4]), zeros([15, 3]), zeros([15, 4])];
    expect(thrown(() => relativeKeyScores(q, q, table, 'relative_key')).message).toBe("relativeKeyScores: 'table' must be [2M - 1, D] with D = 4 and M ≥ T = 8; received [13, 4]. The distance table reaches sequences of at most max_position_embeddings tokens.");
    expect(thrown(() => relativeKeyScores(q, q, narrow, 'relative_key'))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => relativeKeyScores(q, q, wide, 'absolute' as never)).message).toBe('relativeKeyScores: \'type\' must be "relative_key" or "relative_key_query"; received "absolute".');
    [q, table, narrow, wide].forEach((t) => t.dispose());
  });
});
