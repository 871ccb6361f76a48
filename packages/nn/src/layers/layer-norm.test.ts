import { ones, tensor1d, tensor2d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { LayerNorm } from './layer-norm.js';

beforeAll(() => useBackend('cpu'));

describe('LayerNorm', () => {
  it('starts as weight = 1, bias = 0 and checks eps and the input width', async () => {
    const norm = new LayerNorm(3, { eps: 1e-12 });
    expect(Array.from(await norm.weight!.data())).toEqual([1, 1, 1]);
    expect(Array.from(await norm.bias!.data())).toEqual([0, 0, 0]);
    const x = ones([2, 4]);
    expect(thrown(() => norm.forward(x)).message).toBe("LayerNorm.forward: 'x' must be a float32 tensor [..., normalizedShape] with normalizedShape = 3; received [2, 4].");
    for (const eps of [0, -1, Number.NaN, Infinity]) expect(thrown(() => new LayerNorm(3, { eps }))).toBeInstanceOf(InvalidArgumentError);
    x.dispose();
    norm.dispose();
  });
});

describe('LayerNorm without bias (nn.LayerNorm(E, bias=False))', () => {
  it('has only a weight and equals the biased norm with a zero bias, leaking nothing', async () => {
    const plain = new LayerNorm(4, { eps: 1e-5, bias: false });
    const biased = new LayerNorm(4, { eps: 1e-5 });
    expect(plain.namedParameters().map(([name]) => name)).toEqual(['weight']);
    expect(plain.bias).toBeUndefined();
    const weight = [0.5, -1.5, 2, 0.25];
    plain.weight!.assign(tensor1d(weight));
    biased.weight!.assign(tensor1d(weight));
    const x = tensor2d([[1, 2, 3, 4], [-3, 0.5, 7, 1]]);
    const leaks = await leaksOf(() => {
      const [a, b] = [plain.forward(x), biased.forward(x)];
      const [got, want] = [Array.from(a.dataSync()), Array.from(b.dataSync())];
      for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo(want[i] as number, 6);
      // by hand, row 0: mean 2.5, variance 1.25
      expect(got[0]).toBeCloseTo((0.5 * (1 - 2.5)) / Math.sqrt(1.25 + 1e-5), 6);
      a.dispose();
      b.dispose();
    });
    expect(leaks.tensors).toBe(0);
    const none = new LayerNorm(4, { elementwiseAffine: false, bias: false });
    expect(none.numParameters()).toBe(0);
    none.dispose();
    [x, plain, biased].forEach((t) => t.dispose());
  });
});

describe('LayerNorm options', () => {
  it.each([
    [null, "LayerNorm: 'options' must be an options object; received null."],
    [{ elementwiseAffine: 0 }, "LayerNorm: 'elementwiseAffine' must be true or false; received number 0."],
    [{ bias: 'no' }, "LayerNorm: 'bias' must be true or false; received string 'no'."],
    [{ epsilon: 1e-12 }, "LayerNorm: 'options' must be an object with only the keys eps, elementwiseAffine, bias; received the unknown key 'epsilon'. Did you mean 'eps'?"],
  ] as const)('refuses %j with a typed error, leaking nothing', async (options, message) => {
    const leaks = await leaksOf(() => {
      const error = thrown(() => new LayerNorm(3, options as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
  });
});
