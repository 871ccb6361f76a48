import { memory, randomNormal, tensor1d, transpose, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { int8MatMul, quantizeWeightPerChannel } from '@attnkit/kernels';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';

beforeAll(() => useBackend('cpu'));

describe('Int8Linear', () => {
  it('keeps the Linear forward contract and is within 2% of it, leaking nothing', async () => {
    const linear = new Linear(64, 48, { seed: 1 });
    const int8 = Int8Linear.fromLinear(linear);
    const x = randomNormal([2, 5, 64], 0, 1, 'float32', 2);
    const [want, got] = [linear.forward(x), int8.forward(x)];
    expect(got.shape).toEqual([2, 5, 48]);
    const [w, g] = [Array.from(await want.data()), Array.from(await got.data())];
    const error = Math.sqrt(w.reduce((s, v, i) => s + (v - (g[i] as number)) ** 2, 0) / w.reduce((s, v) => s + v ** 2, 0));
    expect(error).toBeLessThan(0.02);
    expect(int8.namedParameters().map(([name]) => name)).toEqual(['bias']);
    expect(await leaksOf(() => int8.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [want, got, x].forEach((t) => t.dispose());
    [linear, int8].forEach((m) => m.dispose());
  });

  it('equals int8MatMul with the quantized weight [in, out] bit for bit', async () => {
    const linear = new Linear(16, 8, { seed: 3 });
    const int8 = Int8Linear.fromLinear(linear, { kernel: 'js' });
    const x = randomNormal([3, 16], 0, 1, 'float32', 4);
    const transposed = transpose(linear.weight); // [out, in] -> [in, out]
    const want = int8MatMul(x, quantizeWeightPerChannel(transposed), linear.bias, { kernel: 'js' });
    expect(Array.from(await int8.forward(x).data())).toEqual(Array.from(await want.data()));
    [x, transposed, want].forEach((t) => t.dispose());
    [linear, int8].forEach((m) => m.dispose());
  });

  it('is inference only: train() and a forward in training mode throw typed errors', () => {
    const int8 = Int8Linear.fromLinear(new Linear(4, 2));
    const error = thrown(() => int8.train());
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("Int8Linear.train: 'mode' must be eval mode (Int8Linear is inference only: its int8 weight has no gradient); received training mode. Train the float model, then quantize it; call eval() on the tree.");
    expect(int8.eval().training).toBe(false);
    int8.dispose();
  });

  it('names the width it expected', () => {
    const int8 = new Int8Linear(quantizeWeightPerChannel({ values: [1, 2, 3, 4, 5, 6], inFeatures: 3, outFeatures: 2 }), tensor1d([0, 1]));
    const x = randomNormal([2, 4]);
    expect(thrown(() => int8.forward(x)).message).toBe("Int8Linear.forward: 'x' must be a float32 tensor [..., inFeatures] with inFeatures = 3; received [2, 4].");
    x.dispose();
    int8.dispose();
  });
});

describe('Int8Linear constructor', () => {
  it('refuses a weight that is not an Int8Weight and a bias of the wrong width, leaving no tensor', () => {
    const before = memory().numTensors;
    expect(() => new Int8Linear(undefined as never)).toThrow(/Int8Linear: 'weight'/);
    expect(() => new Int8Linear({} as never)).toThrow(/Int8Linear: 'weight'/);
    const weight = quantizeWeightPerChannel({ values: new Float32Array(6), inFeatures: 3, outFeatures: 2 });
    const bias = zeros([3]);
    expect(() => new Int8Linear(weight, bias)).toThrow(/'bias' must be a tensor \[out\] = \[2\]/);
    bias.dispose();
    expect(memory().numTensors).toBe(before);
  });
  it('checks its options when it is built, not at its first forward', () => {
    const weight = quantizeWeightPerChannel({ values: new Float32Array(4).fill(0.5), inFeatures: 2, outFeatures: 2 });
    const before = memory().numTensors;
    expect(thrown(() => new Int8Linear(weight, undefined, { kernel: 'x' as never })).message).toBe("Int8Linear: 'kernel' must be one of 'relaxed-simd', 'simd', 'js' (or absent: the fastest this backend has); received string 'x'.");
    expect(thrown(() => new Int8Linear(weight, undefined, null as never)).message).toMatch(/^Int8Linear: 'options' must be an object/);
    expect(thrown(() => new Int8Linear(weight, undefined, { kernal: 'js' } as never))).toBeInstanceOf(InvalidArgumentError);
    const linear = new Linear(2, 2, { seed: 1 });
    expect(thrown(() => Int8Linear.fromLinear(linear, { kernel: -1 as never })).message).toMatch(/^Int8Linear\.fromLinear: 'kernel' must be one of/);
    linear.dispose();
    expect(memory().numTensors).toBe(before);
  });
});
