import { randomNormal } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { rmsNorm } from '../ops/rms-norm.js';
import { GemmaRMSNorm } from './gemma-rms-norm.js';

beforeAll(() => useBackend('cpu'));

describe('GemmaRMSNorm', () => {
  it("starts with 'weight' at zeros, a scale of 1 + weight = 1, and scales by 1 + weight once loaded", async () => {
    const norm = new GemmaRMSNorm(4);
    expect(norm.namedParameters().map(([name, p]) => [name, p.shape])).toEqual([['weight', [4]]]);
    const x = randomNormal([3, 4], 0, 1, 'float32', 5);
    const [y, plain] = [norm.forward(x), rmsNorm(x, undefined, 1e-6)];
    expect(maxDifference(await y.data(), await plain.data()).maxAbsDiff).toBe(0);
    norm.weight.assign(randomNormal([4], 0, 0.1, 'float32', 6));
    const scaled = norm.forward(x);
    const weight = await norm.weight.data();
    const expected = Array.from(await plain.data(), (v, i) => v * (1 + (weight[i % 4] as number)));
    expect(maxDifference(await scaled.data(), expected).maxAbsDiff).toBeLessThan(1e-6);
    expect(await leaksOf(() => norm.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y, plain, scaled].forEach((t) => t.dispose());
    norm.dispose();
  });

  it('checks its arguments as RMSNorm does', () => {
    expect(thrown(() => new GemmaRMSNorm(2.5)).message).toBe("GemmaRMSNorm: 'normalizedShape' must be an integer ≥ 1; received number 2.5.");
    expect(thrown(() => new GemmaRMSNorm(2, { eps: 0 })).message).toBe("GemmaRMSNorm: 'eps' must be a finite number > 0; received number 0.");
  });
});
