import { ones } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { Dropout } from './dropout.js';

beforeAll(() => useBackend('cpu'));

describe('Dropout', () => {
  it('is the identity in eval mode and drops ~p of the elements, scaling the rest by 1/(1-p), in training', async () => {
    const drop = new Dropout(0.25);
    const x = ones([4000]);
    expect(drop.forward(x)).toBe(x);
    drop.train();
    const y = drop.forward(x, { seed: 7 });
    const values = Array.from(await y.data());
    const zeros = values.filter((v) => v === 0).length / values.length;
    expect(zeros).toBeGreaterThan(0.22);
    expect(zeros).toBeLessThan(0.28);
    expect(new Set(values.filter((v) => v !== 0).map((v) => v.toFixed(5)))).toEqual(new Set([(1 / 0.75).toFixed(5)]));
    expect(Array.from(await drop.forward(x, { seed: 7 }).data())).toEqual(values);
    [x, y].forEach((t) => t.dispose());
  });

  it.each([[-0.1], [1], [Number.NaN], ['0.1']])('refuses p = %s', (p) => {
    const error = thrown(() => new Dropout(p as number));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^Dropout: 'p' must be a rate in \[0, 1\); received /);
  });
});
