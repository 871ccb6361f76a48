import { dropout, ones, type Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { describe, expect, it } from 'vitest';
import { withSeededDropout } from './with-seeded-dropout.js';

describe('withSeededDropout', () => {
  it('makes unseeded dropout masks a function of (seed, step) and restores Math.random', async () => {
    await useBackend('cpu');
    const x = ones([64]);
    const mask = async (seed: number, step: number) => {
      const [a, b] = withSeededDropout(seed, step, () => [dropout(x, 0.5), dropout(x, 0.5)] as Tensor[]);
      const values = [Array.from(await a!.data()), Array.from(await b!.data())];
      a!.dispose();
      b!.dispose();
      return values;
    };
    const original = Math.random;
    const first = await mask(1, 0);
    expect(Math.random).toBe(original);
    expect(first[0]).not.toEqual(first[1]); // two calls in one step draw different masks
    expect(await mask(1, 0)).toEqual(first);
    expect(await mask(1, 1)).not.toEqual(first);
    expect(await mask(2, 0)).not.toEqual(first);
    expect(() => withSeededDropout(1, 0, () => { throw new Error('boom'); })).toThrow('boom');
    expect(Math.random).toBe(original);
    x.dispose();
  });
});
