import { ones } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Dropout } from './dropout.js';

beforeAll(() => useBackend('cpu'));

describe('Dropout', () => {
  it('is the identity in eval mode and drops ~p of the elements, scaling the rest by 1/(1-p), in training', async () => {
    const drop = new Dropout(0.25);
    const x = ones([4000]);
    const same = drop.forward(x);
    expect(same).not.toBe(x); // a new tensor: disposing it leaves x alone
    same.dispose();
    expect(Array.from(await x.data()).every((v) => v === 1)).toBe(true);
    drop.train();
    const y = drop.forward(x, { seed: 7 });
    const values = Array.from(await y.data());
    const zeros = values.filter((v) => v === 0).length / values.length;
    expect(zeros).toBeGreaterThan(0.22);
    expect(zeros).toBeLessThan(0.28);
    expect(new Set(values.filter((v) => v !== 0).map((v) => v.toFixed(5)))).toEqual(new Set([(1 / 0.75).toFixed(5)]));
    const again = drop.forward(x, { seed: 7 });
    expect(Array.from(await again.data())).toEqual(values);
    expect(await leaksOf(() => drop.forward(x, { seed: 1 }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y, again].forEach((t) => t.dispose());
  });

  it.each([[-0.1], [1], [Number.NaN], ['0.1']])('refuses p = %s', (p) => {
    const error = thrown(() => new Dropout(p as number));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^Dropout: 'p' must be a rate in \[0, 1\); received /);
  });
});

describe('Dropout.forward options', () => {
  it('refuses null and unknown keys with typed errors', () => {
    const drop = new Dropout(0.5);
    const x = ones([2]);
    expect(thrown(() => drop.forward(x, null as never))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => drop.forward(x, { sead: 1 } as never)).message).toBe("Dropout.forward: 'options' must be an object with only the keys seed; received the unknown key 'sead'. Did you mean 'seed'?");
    x.dispose();
    drop.dispose();
  });
});
