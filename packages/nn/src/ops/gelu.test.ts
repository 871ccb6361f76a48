import { tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { erf64 } from '@attnkit/backends/conformance';
import { leaksOf } from '@attnkit/test-utils';
import { gelu } from './gelu.js';

const xs = Array.from({ length: 2001 }, (_, i) => -10 + i / 100); // [-10, 10] in steps of 0.01
const exact = xs.map((x) => 0.5 * Math.fround(x) * (1 + erf64(Math.fround(x) * Math.SQRT1_2)));

describe.each(['cpu', 'wasm'] as const)('gelu on %s', (backend) => {
  it('is exact (erf) GELU within 1e-6 of float64 over [-10, 10], and leaks nothing', async () => {
    await useBackend(backend);
    const x = tensor(xs);
    const y = gelu(x);
    expect(maxDifference(await y.data(), exact).maxAbsDiff).toBeLessThan(1e-6);
    expect(await leaksOf(() => gelu(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y].forEach((t) => t.dispose());
  });
});
