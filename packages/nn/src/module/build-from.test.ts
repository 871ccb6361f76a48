import { memory, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { checkpointRefusals, thrown } from '@attnkit/test-utils';
import { Linear } from '../layers/linear.js';
import type { StateDictSource } from './load-state-dict.js';
import { Module } from './module.js';
import { StateDictError } from './state-dict-error.js';

beforeAll(() => useBackend('cpu'));

/** A module built from its config and, optionally, a checkpoint. */
class Projection extends Module {
  readonly linear: Linear;
  constructor(config: { readonly bias: boolean }, checkpoint?: StateDictSource) {
    super();
    this.linear = this.buildFrom(checkpoint, () => this.registerModule('linear', new Linear(2, 3, { bias: config.bias, seed: 1 })));
  }
}

describe('Module.buildFrom (a constructor with an optional checkpoint)', () => {
  it('loads the checkpoint (tensors, or values not yet on a backend) in place of the initial values', async () => {
    const weight = tensor([[1, 2], [3, 4], [5, 6]]);
    const fromTensors = new Projection({ bias: false }, { 'linear.weight': weight });
    const fromValues = new Projection({ bias: true }, new Map([['linear.weight', { shape: [3, 2], values: new Float32Array(6) }], ['linear.bias', { shape: [3], values: new Float32Array([7, 8, 9]) }]]));
    expect(Array.from(await fromTensors.linear.weight.data())).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Array.from(await fromValues.linear.bias!.data())).toEqual([7, 8, 9]);
    const drawn = new Projection({ bias: false });
    expect(Array.from(await drawn.linear.weight.data()).some((v) => v !== 0)).toBe(true);
    [weight, fromTensors, fromValues, drawn].forEach((t) => t.dispose());
  });

  it('refuses unknown, missing, mis-shaped and turned-off keys in one StateDictError, leaking nothing', () => {
    const withBias = checkpointRefusals((c) => new Projection({ bias: true }, c), { 'linear.weight': [3, 2], 'linear.bias': [3] });
    expect(withBias.actual).toEqual(withBias.expected);
    const withoutBias = checkpointRefusals((c) => new Projection({ bias: false }, c), { 'linear.weight': [3, 2] }, { 'linear.bias': [3] });
    expect(withoutBias.actual).toEqual(withoutBias.expected);
  });

  it('names the module and the keys its config gives it', () => {
    const [weight, bias] = [zeros([2, 3]), zeros([3])];
    const before = memory().numTensors;
    const error = thrown(() => new Projection({ bias: false }, { 'linear.weight': weight, 'linear.bias': bias }));
    expect(error).toBeInstanceOf(StateDictError);
    expect(error.message).toBe(
      'Projection: the state dict does not fit the module. 1 unexpected: linear.bias. 1 mis-shaped: linear.weight (expected [3, 2] float32, received [2, 3] float32). For its config, this Projection has linear.weight [3, 2].',
    );
    expect(memory().numTensors).toBe(before);
    [weight, bias].forEach((t) => t.dispose());
  });
});
