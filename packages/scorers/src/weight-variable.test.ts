import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { ResourceLimitError, InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { weightVariable } from './weight-variable.js';

beforeAll(() => useBackend('cpu'));

describe('weightVariable', () => {
  it('copies a given value into a trainable variable (later changes to the source do not leak in)', async () => {
    const source = tensor([[1, 2, 3], [4, 5, 6]]);
    const weight = weightVariable({ caller: 'L', name: 'W.weight', shape: [2, 3], value: source });
    source.dispose();
    expect([weight.trainable, weight.shape, Array.from(await weight.data())]).toEqual([true, [2, 3], [1, 2, 3, 4, 5, 6]]);
    weight.dispose();
  });
  it('initialises Glorot-uniform, reproducibly per seed, or zeros for biases', async () => {
    const [a, b, c] = [1, 1, 2].map((seed) => weightVariable({ caller: 'L', name: 'W', shape: [30, 20], seed }));
    const [va, vb, vc] = await Promise.all([a!.data(), b!.data(), c!.data()]);
    expect(va).toEqual(vb);
    expect(va).not.toEqual(vc);
    const limit = Math.sqrt(6 / 50);
    expect(Math.max(...Array.from(va).map(Math.abs))).toBeLessThanOrEqual(limit);
    expect(Math.max(...Array.from(va).map(Math.abs))).toBeGreaterThan(limit * 0.9);
    const bias = weightVariable({ caller: 'L', name: 'b', shape: [5], zeros: true });
    expect(Array.from(await bias.data())).toEqual([0, 0, 0, 0, 0]);
    [a, b, c, bias].forEach((t) => t?.dispose());
  });
  it('rejects given values of the wrong shape or dtype, in PyTorch layout terms', () => {
    const wrong = tensor([[1, 2], [3, 4], [5, 6]]);
    const error = thrown(() => weightVariable({ caller: 'L', name: 'W.weight', shape: [2, 3], value: wrong }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("L: 'weights['W.weight']' must be shape [2, 3] (PyTorch layout, from the layer's configuration); received [3, 2].");
    const ints = tensor([[1, 2, 3], [4, 5, 6]], [2, 3], 'int32');
    expect(thrown(() => weightVariable({ caller: 'L', name: 'W.weight', shape: [2, 3], value: ints })).message).toBe(
      "L: 'weights['W.weight']' must be a float32 tensor of rank 2 [2, 3]; received int32 tensor of rank 2 [2, 3].",
    );
    [wrong, ints].forEach((t) => t.dispose());
  });

  it('refuses a weight past the memory budget before drawing it', () => {
    const error = thrown(() => weightVariable({ caller: 'MultiHeadAttention', name: 'in_proj_weight', shape: [3_000_000, 1_000_000] }));
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect(error.message).toMatch(/^MultiHeadAttention: the values of the weight 'in_proj_weight' \[3000000, 1000000\] float32 need 11175\.9 GiB/);
  });
});
