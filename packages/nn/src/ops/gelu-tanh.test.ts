import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { geluTanh } from './gelu-tanh.js';

beforeAll(() => useBackend('cpu'));

describe('geluTanh', () => {
  it('is the tanh approximation of GELU (float64 formula) within 1e-6 on [-8, 8], and leaks nothing', async () => {
    const xs = Array.from({ length: 1601 }, (_, i) => Math.fround(-8 + i / 100));
    const exact = xs.map((x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3))));
    const x = tensor(xs);
    const y = geluTanh(x);
    expect(maxDifference(await y.data(), exact).maxAbsDiff).toBeLessThan(1e-6);
    expect(await leaksOf(() => geluTanh(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y].forEach((t) => t.dispose());
  });
});
