import { ones, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { ResourceLimitError, InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Linear } from './linear.js';

beforeAll(() => useBackend('cpu'));

describe('Linear', () => {
  it('has weight [out, in] and bias [out] initialised in U(-1/√in, 1/√in), reproducibly with a seed', async () => {
    const [a, b] = [new Linear(16, 4, { seed: 3 }), new Linear(16, 4, { seed: 3 })];
    expect(a.namedParameters().map(([n, p]) => [n, p.shape])).toEqual([['weight', [4, 16]], ['bias', [4]]]);
    const values = Array.from(await a.weight.data());
    expect(Math.max(...values.map(Math.abs))).toBeLessThanOrEqual(0.25);
    expect(Math.max(...values.map(Math.abs))).toBeGreaterThan(0.15);
    expect(values).toEqual(Array.from(await b.weight.data()));
    [a, b].forEach((m) => m.dispose());
  });

  it('maps [..., in] to [..., out] for any leading shape, leaking nothing', async () => {
    const layer = new Linear(3, 5, { bias: false });
    const x = ones([2, 4, 6, 3]);
    expect(layer.forward(x).shape).toEqual([2, 4, 6, 5]);
    expect(await leaksOf(() => layer.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
    layer.dispose();
  });

  it('names the width it expected and the shape it received', () => {
    const layer = new Linear(3, 5);
    const x = zeros([2, 4]);
    const error = thrown(() => layer.forward(x));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("Linear.forward: 'x' must be a float32 tensor [..., inFeatures] with inFeatures = 3; received [2, 4].");
    expect(thrown(() => layer.forward(zeros([2, 3], 'int32'))).message).toMatch(/^Linear.forward: 'x' must be a float32 tensor \[\.\.\., inFeatures\]; received int32 tensor of rank 2 \[2, 3\]/);
    expect(thrown(() => new Linear(0, 2)).message).toMatch(/^Linear: 'inFeatures' must be an integer ≥ 1; received number 0\.$/);
    x.dispose();
    layer.dispose();
  });

  it('refuses a weight past the backend memory budget before allocating it, naming the layer and the size', async () => {
    const error = await leaksOf(() => {
      const e = thrown(() => new Linear(70_000, 70_000));
      expect(e).toBeInstanceOf(ResourceLimitError);
      expect(e.message).toMatch(/^Linear: the values of a parameter \[70000, 70000\] float32 need 18\.3 GiB, more than the 2\.0 GiB cpu allows \(2 GiB per operation\)\. A layer this size does not fit this backend: choose smaller dimensions\.$/);
    });
    expect(error).toEqual({ tensors: 0, bytes: 0 });
  });
});

describe('Linear options', () => {
  it.each([
    [null, "Linear: 'options' must be an options object; received null."],
    [{ bias: 'no' }, "Linear: 'bias' must be true or false; received string 'no'."],
    [{ useBias: false }, "Linear: 'options' must be an object with only the keys bias, seed; received the unknown key 'useBias'. Did you mean 'bias'?"],
  ] as const)('refuses %j with a typed error, leaking nothing', async (options, message) => {
    const leaks = await leaksOf(() => {
      const error = thrown(() => new Linear(2, 3, options as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
  });
});
