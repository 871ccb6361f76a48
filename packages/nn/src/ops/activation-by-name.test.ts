import { tensor, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { ACTIVATIONS, activationByName } from './activation-by-name.js';

beforeAll(() => useBackend('cpu'));

describe('activationByName', () => {
  it('knows the Hugging Face hidden_act names and passes functions through', () => {
    expect(Object.keys(ACTIVATIONS)).toEqual(expect.arrayContaining(['gelu', 'gelu_new', 'gelu_pytorch_tanh', 'quick_gelu', 'relu', 'silu', 'swish', 'tanh', 'linear']));
    const own = (x: Tensor): Tensor => x;
    expect(activationByName(own)).toBe(own);
  });

  it.each(Object.keys(ACTIVATIONS))('%s keeps the shape and leaks nothing', async (name) => {
    const x = tensor([[-2, 0.5], [3, 7]]);
    const act = activationByName(name);
    expect(act(x).shape).toEqual([2, 2]);
    expect(await leaksOf(() => act(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
  });

  it.each(['gelu_tanh', 'GELU', '__proto__', 'constructor', 'toString'])('refuses %s, listing the known names', (name) => {
    const error = thrown(() => activationByName(name, 'FeedForward'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(new RegExp(`^FeedForward: 'activation' must be one of gelu, gelu_python, gelu_new, .*, or a function; received `));
  });
});
