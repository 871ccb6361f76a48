import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { grad, tensor2d, type Tensor2D } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { unitRows } from './unit-rows.js';

beforeAll(() => useBackend('cpu'));

describe('unitRows', () => {
  it('divides rows by their length, leaves a zero row zero with a finite gradient, and leaks nothing', async () => {
    const x = tensor2d([[3, 4], [0, 0]]);
    const y = unitRows(x, 1e-12);
    expect(Array.from(await y.data())).toEqual([0.6, 0.8, 0, 0].map((v) => Math.fround(v)));
    const g = grad((input) => unitRows(input as Tensor2D, 1e-12))(x);
    // d/dx_j Σ_i x_i/‖x‖ = 1/‖x‖ - x_j Σ_i x_i / ‖x‖³: at (3, 4) 0.2 - 3·7/125 and 0.2 - 4·7/125; a zero row is x / eps: 1/eps (as PyTorch's clamp)
    const expected = [0.032, -0.024, 1e12, 1e12];
    (await g.data()).forEach((v, i) => expect(v / expected[i]!).toBeCloseTo(1, 5));
    expect(await leaksOf(() => unitRows(x, 1e-12).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y, g].forEach((t) => t.dispose());
  });
});
