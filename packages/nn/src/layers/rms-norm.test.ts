import { ones, randomNormal } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { rmsNorm } from '../ops/rms-norm.js';
import { RMSNorm } from './rms-norm.js';

beforeAll(() => useBackend('cpu'));

describe('RMSNorm', () => {
  it("has one parameter, 'weight', starting at ones, and is rmsNorm with it", async () => {
    const norm = new RMSNorm(6, { eps: 1e-5 });
    expect(norm.namedParameters().map(([name, p]) => [name, p.shape])).toEqual([['weight', [6]]]);
    expect(Array.from(await norm.weight.data())).toEqual([1, 1, 1, 1, 1, 1]);
    const x = randomNormal([2, 3, 6], 0, 1, 'float32', 3);
    const [y, expected] = [norm.forward(x), rmsNorm(x, undefined, 1e-5)];
    expect(maxDifference(await y.data(), await expected.data()).maxAbsDiff).toBe(0);
    expect(await leaksOf(() => norm.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y, expected].forEach((t) => t.dispose());
    norm.dispose();
  });

  it('checks the input width and its options', () => {
    const norm = new RMSNorm(3);
    expect(norm.eps).toBe(1e-6);
    const x = ones([2, 4]);
    expect(thrown(() => norm.forward(x)).message).toBe("RMSNorm.forward: 'x' must be a float32 tensor [..., normalizedShape] with normalizedShape = 3; received [2, 4].");
    expect(thrown(() => new RMSNorm(0)).message).toBe("RMSNorm: 'normalizedShape' must be an integer ≥ 1; received number 0.");
    expect(thrown(() => new RMSNorm(3, { epsilon: 1e-5 } as never)).message).toBe("RMSNorm: 'options' must be an object with only the keys eps; received the unknown key 'epsilon'. Did you mean 'eps'?");
    for (const eps of [0, -1, Number.NaN, Infinity, '1e-6']) expect(thrown(() => new RMSNorm(3, { eps: eps as number }))).toBeInstanceOf(InvalidArgumentError);
    x.dispose();
    norm.dispose();
  });
});
