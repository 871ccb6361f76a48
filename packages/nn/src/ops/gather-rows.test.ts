import '@attnkit/backends/gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import { grad, memory, sum, tensor1d, tensor2d, type Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { gatherRows } from './gather-rows.js';

beforeAll(() => useBackend('cpu'));

describe('gatherRows', () => {
  it('picks rows, and sums the gradient of a row picked twice; no tensor left', async () => {
    const x = tensor2d([[1, 2], [3, 4], [5, 6]]);
    const indices = tensor1d([2, 0, 2], 'int32');
    const before = memory().numTensors;
    const rows = gatherRows(x, indices);
    expect(await rows.array()).toEqual([[5, 6], [1, 2], [5, 6]]);
    rows.dispose();
    const dx = grad((t: Tensor) => sum(gatherRows(t, indices)))(x);
    expect(await dx.array()).toEqual([[1, 1], [0, 0], [2, 2]]);
    dx.dispose();
    expect(memory().numTensors).toBe(before);
    [x, indices].forEach((t) => t.dispose());
  });

  it('refuses indices out of range and wrong kinds of tensors', () => {
    const x = tensor2d([[1, 2], [3, 4]]);
    const far = tensor1d([0, 2], 'int32');
    const floats = tensor1d([0]);
    expect(() => gatherRows(x, far)).toThrow(/gatherRows: 'indices\[1\]' must be a row of x \[2, 2\], in \[0, 2\); received 2/);
    expect(() => gatherRows(x, floats)).toThrow(InvalidArgumentError);
    expect(() => gatherRows(floats, far)).toThrow(/'x'/);
    [x, far, floats].forEach((t) => t.dispose());
  });
});
