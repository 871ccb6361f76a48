import { engine, randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { GELU_KERNEL } from '@attnkit/kernels';
import { ACTIVATIONS } from '../ops/activation-by-name.js';
import { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';
import { linearThenActivation } from './linear-then-activation.js';

describe('linearThenActivation', () => {
  afterAll(() => useBackend('cpu'));

  it('fuses exact GELU into an Int8Linear on wasm: the numbers of the unfused GELU kernel, bit for bit', async () => {
    await useBackend('wasm');
    const linear = new Linear(24, 40, { seed: 1 });
    const int8 = Int8Linear.fromLinear(linear).eval();
    const x = randomNormal([3, 5, 24], 0, 2, 'float32', 2);
    const fused = linearThenActivation(int8, x, ACTIVATIONS['gelu']!);
    const unfused = engine().runKernel(GELU_KERNEL, { x: int8.forward(x) }) as Tensor;
    expect(fused.shape).toEqual([3, 5, 40]);
    expect(Array.from(fused.dataSync())).toEqual(Array.from(unfused.dataSync()));
  });

  it.each(['relu', 'gelu_new', 'gelu'] as const)('on a float Linear, and for %s on an Int8Linear where not fused, is activation(linear(x))', async (name) => {
    await useBackend('cpu');
    const linear = new Linear(8, 6, { seed: 3 });
    const x = randomNormal([4, 8], 0, 1, 'float32', 4);
    const activation = ACTIVATIONS[name]!;
    expect(Array.from(linearThenActivation(linear, x, activation).dataSync())).toEqual(Array.from(activation(linear.forward(x)).dataSync()));
    if (name !== 'gelu') {
      const int8 = Int8Linear.fromLinear(linear).eval();
      expect(Array.from(linearThenActivation(int8, x, activation).dataSync())).toEqual(Array.from(activation(int8.forward(x)).dataSync()));
    }
  });

  it('refuses what is not a Linear and an activation that is not a function, with typed errors', async () => {
    await useBackend('cpu');
    const x = randomNormal([2, 8], 0, 1, 'float32', 5);
    expect(() => linearThenActivation({} as Linear, x, ACTIVATIONS['gelu']!)).toThrow(/'linear' must be a Linear or an Int8Linear/);
    expect(() => linearThenActivation(new Linear(8, 2), x, 'gelu' as never)).toThrow(/'activation' must be an activation function/);
  });
});
