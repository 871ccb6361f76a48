import { tensor2d, tanh, matMul, transpose, add, tensor1d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { StateDictError } from '@attnkit/nn';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Dense, parseDenseConfig } from './dense.js';

beforeAll(() => useBackend('cpu'));
const weight = { shape: [2, 3], values: new Float32Array([0.1, -0.2, 0.3, 0.4, 0.5, -0.6]) };
const bias = { shape: [2], values: new Float32Array([0.05, -0.05]) };

describe('Dense', () => {
  it('is activation(x Wᵀ + b) with the checkpoint names linear.weight / linear.bias, and leaks nothing', async () => {
    const dense = new Dense(parseDenseConfig({ in_features: 3, out_features: 2, bias: true, activation_function: 'torch.nn.modules.activation.Tanh' }), { 'linear.weight': weight, 'linear.bias': bias });
    const x = tensor2d([[1, 2, 3], [-1, 0, 0.5]]);
    const expected = tanh(add(matMul(x, transpose(tensor2d([...weight.values], [2, 3]))), tensor1d([...bias.values])));
    expect(maxDifference(dense.forward(x).dataSync(), expected.dataSync()).maxAbsDiff).toBeLessThan(1e-7);
    expect(await leaksOf(() => dense.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    dense.dispose();
  });

  it('loads strictly: a missing bias is a StateDictError', () => {
    const config = parseDenseConfig({ in_features: 3, out_features: 2, bias: true, activation_function: 'torch.nn.modules.linear.Identity' });
    expect(thrown(() => new Dense(config, { 'linear.weight': weight }))).toBeInstanceOf(StateDictError);
  });
});

describe('parseDenseConfig', () => {
  it('reads Identity and defaults to Tanh, as sentence-transformers', () => {
    expect(parseDenseConfig({ in_features: 4, out_features: 2, bias: false, activation_function: 'torch.nn.modules.linear.Identity' })).toEqual({ inFeatures: 4, outFeatures: 2, bias: false, activation: 'linear' });
    expect(parseDenseConfig({ in_features: 4, out_features: 2 }).activation).toBe('tanh');
  });

  it.each<[unknown, string]>([
    [{ in_features: 0, out_features: 2 }, "parseDenseConfig: 'in_features' must be a positive integer; received 0."],
    [{ in_features: 4, out_features: 2, bias: 'yes' }, 'parseDenseConfig: \'bias\' must be true or false; received "yes".'],
    [{ in_features: 4, out_features: 2, activation_function: 'my_module.Swish' }, 'parseDenseConfig: \'activation_function\' must be a torch.nn activation attnkit has (Tanh, Identity, ReLU, GELU, Sigmoid, SiLU, LeakyReLU, Mish, ReLU6); received "my_module.Swish".'],
  ])('rejects %j', (json, message) => {
    const error = thrown(() => parseDenseConfig(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
