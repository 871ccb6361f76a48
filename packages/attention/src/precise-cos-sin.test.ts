import { memory, tensor1d, tensor2d } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { preciseCosSin } from './precise-cos-sin.js';

/** Rotary-style angles: positions up to 2·10^4 times inverse frequencies of a 32-wide head, float32. */
function angles(): Float32Array {
  const out = new Float32Array(20_000);
  for (let i = 0; i < out.length; i++) out[i] = Math.fround(i * Math.fround(1 / Math.pow(10_000, (i % 16) / 16)));
  return out;
}

describe('preciseCosSin', () => {
  it.each(['cpu', 'wasm'] as const)('is within 4e-7 of float64 cos and sin for angles up to 2·10^4, negative ones included, and leaves nothing behind (%s)', async (backend) => {
    await useBackend(backend);
    const values = angles().map((a, i) => (i % 3 === 0 ? -a : a));
    const before = memory().numTensors;
    const input = tensor1d(values);
    const [c, s] = preciseCosSin(input);
    const [cv, sv] = [await c.data(), await s.data()];
    let worst = 0;
    values.forEach((a, i) => (worst = Math.max(worst, Math.abs(cv[i]! - Math.cos(a)), Math.abs(sv[i]! - Math.sin(a)))));
    expect(worst).toBeLessThan(4e-7);
    expect(worst).toBeGreaterThan(0); // float32: not the float64 values themselves
    [input, c, s].forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
  });

  it('keeps the shape', async () => {
    await useBackend('cpu');
    const [c, s] = preciseCosSin(tensor2d([[0, Math.PI / 2], [Math.PI, -Math.PI / 2]]));
    expect([c.shape, s.shape]).toEqual([[2, 2], [2, 2]]);
    const [cv, sv] = [Array.from(await c.data()), Array.from(await s.data())];
    [1, 0, -1, 0].forEach((v, i) => expect(cv[i]!).toBeCloseTo(v, 6));
    [0, 1, 0, -1].forEach((v, i) => expect(sv[i]!).toBeCloseTo(v, 6));
  });

  it('refuses what is not a float32 tensor with an InvalidArgumentError', async () => {
    await useBackend('cpu');
    expect(() => preciseCosSin([1, 2] as never)).toThrow(InvalidArgumentError);
    expect(() => preciseCosSin(tensor1d([1, 2], 'int32'))).toThrow(/preciseCosSin: 'angles' must be/);
  });
});
