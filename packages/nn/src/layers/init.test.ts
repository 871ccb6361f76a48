import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { initialValues, skipInitialization } from './init.js';
import { Linear } from './linear.js';

beforeAll(() => useBackend('cpu'));

describe('initialValues / skipInitialization', () => {
  it('draws within the bound, reproducibly with a seed; normal has the asked std; constant fills', async () => {
    const [a, b] = [initialValues([64, 64], { uniform: 0.1 }, 5), initialValues([64, 64], { uniform: 0.1 }, 5)];
    const values = Array.from(await a.data());
    expect(Math.max(...values.map(Math.abs))).toBeLessThanOrEqual(0.1);
    expect(values).toEqual(Array.from(await b.data()));
    const normal = Array.from(await initialValues([10_000], { normal: 0.02 }, 1).data());
    const std = Math.sqrt(normal.reduce((s, v) => s + v * v, 0) / normal.length);
    expect(std).toBeGreaterThan(0.019);
    expect(std).toBeLessThan(0.021);
    expect(Array.from(await initialValues([3], { constant: 1 }).data())).toEqual([1, 1, 1]);
    [a, b].forEach((t) => t.dispose());
  });

  it('glorotUniform draws within gain · √(6 / (fanIn + fanOut)) of a weight [out, in], reproducibly per seed', async () => {
    const [a, b, c] = [1, 1, 2].map((seed) => initialValues([30, 20], { glorotUniform: 1 }, seed));
    const [va, vb, vc] = await Promise.all([a!.data(), b!.data(), c!.data()]);
    expect(va).toEqual(vb);
    expect(va).not.toEqual(vc);
    const largest = Math.max(...Array.from(va).map(Math.abs));
    expect(largest).toBeLessThanOrEqual(Math.sqrt(6 / 50));
    expect(largest).toBeGreaterThan(0.9 * Math.sqrt(6 / 50));
    const doubled = initialValues([30, 20], { glorotUniform: 2 }, 1);
    expect(Math.max(...Array.from(await doubled.data()).map(Math.abs))).toBeCloseTo(2 * largest, 5);
    [a, b, c, doubled].forEach((t) => t?.dispose());
  });

  it('inside skipInitialization every parameter starts at zero (no random draw), and the flag is reset after a throw', async () => {
    const before = memory().numTensors;
    const skipped = skipInitialization(() => new Linear(4, 4, { seed: 1 }));
    expect(Array.from(await skipped.weight.data()).every((v) => v === 0)).toBe(true);
    expect(() => skipInitialization(() => { throw new Error('boom'); })).toThrow('boom');
    const drawn = new Linear(4, 4, { seed: 1 });
    expect(Array.from(await drawn.weight.data()).some((v) => v !== 0)).toBe(true);
    [skipped, drawn].forEach((m) => m.dispose());
    expect(memory().numTensors).toBe(before);
  });
});
