import { grad, memory, sum, tensor2d, mul, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { l2Normalize } from './l2-normalize.js';

describe.each(['cpu', 'wasm'] as const)('l2Normalize on %s', (backend) => {
  it('scales rows to unit length and leaves a zero row zero', async () => {
    await useBackend(backend);
    const y = l2Normalize(tensor2d([[3, 4], [0, 0], [1e-13, 0]]));
    expectTypeOf(y).toEqualTypeOf<Tensor2D>(); // [N, E]
    const values = Array.from(await y.data());
    expect(values.slice(0, 2)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(values.slice(2, 4)).toEqual([0, 0]);
    expect(values[4]).toBeCloseTo(0.1, 6); // below eps the row is divided by eps, as torch's clamp does
    y.dispose();
  });

  it('has a finite gradient at a zero row: w / eps, as torch.nn.functional.normalize gives', async () => {
    await useBackend(backend);
    const w = tensor2d([[0.5, -2], [0.25, 3]]);
    const before = memory().numTensors;
    const g = grad((x: Tensor) => sum(mul(l2Normalize(x, 1e-3), w)))(tensor2d([[0, 0], [3, 4]]));
    const values = Array.from(await g.data());
    expect(values.every(Number.isFinite)).toBe(true);
    expect(values.slice(0, 2)).toEqual([expect.closeTo(500, 3), expect.closeTo(-2000, 3)]);
    // for a non-zero row the gradient is (w - y (y·w)) / ‖x‖ with y = x/‖x‖ = [0.6, 0.8], y·w = 2.55
    expect(values.slice(2)).toEqual([expect.closeTo((0.25 - 0.6 * 2.55) / 5, 6), expect.closeTo((3 - 0.8 * 2.55) / 5, 6)]);
    g.dispose();
    expect(memory().numTensors).toBe(before + 1); // the input tensor2d only
    w.dispose();
  });

  it('refuses an eps that is not a finite positive number', async () => {
    await useBackend(backend);
    const x = tensor2d([[1, 2]]);
    for (const eps of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = thrown(() => l2Normalize(x, eps));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/l2Normalize: 'eps' must be a finite number > 0; received/);
    }
    x.dispose();
  });
});

describe('l2Normalize eps', () => {
  it('refuses an eps that is a tensor by name, without reading it', () => {
    const x = tensor2d([[3, 4]]);
    const eps = tensor2d([[1]]);
    eps.dispose();
    expect(() => l2Normalize(x, eps as never)).toThrow(/^l2Normalize: 'eps' must be a finite number > 0; received .*tensor/);
    x.dispose();
  });
});
