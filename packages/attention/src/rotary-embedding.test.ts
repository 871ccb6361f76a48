import { memory, tensor2d } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { RotaryEmbedding } from './rotary-embedding.js';
import { rotaryCosSin } from './rotary-cos-sin.js';

const positions = (length: number) => tensor2d([Array.from({ length }, (_, t) => t)], [1, length], 'int32');

describe('RotaryEmbedding', () => {
  it('gives the cos and sin tables of its frequencies, and leaves only what it returns', async () => {
    await useBackend('cpu');
    const rotary = new RotaryEmbedding({ headDim: 8, ropeTheta: 100 });
    const ids = positions(5);
    const before = memory().numTensors;
    const { cos, sin } = rotary.forward(ids);
    expect(memory().numTensors).toBe(before + 2);
    const expected = rotaryCosSin(ids, rotary.frequencies);
    expect([cos.shape, Array.from(await cos.data()), Array.from(await sin.data())]).toEqual([[1, 5, 8], Array.from(await expected.cos.data()), Array.from(await expected.sin.data())]);
    [cos, sin, expected.cos, expected.sin, ids].forEach((t) => t.dispose());
    rotary.dispose();
  });

  it('dynamic: grows its frequencies past the longest sequence seen, keeps them, and resets below the original length', async () => {
    await useBackend('cpu');
    const rotary = new RotaryEmbedding({ headDim: 8, ropeType: 'dynamic', factor: 2, maxPositionEmbeddings: 4 });
    const original = Array.from(rotary.frequencies.inverseFrequencies);
    const run = (length: number) => { const ids = positions(length); const out = rotary.forward(ids); [ids, out.cos, out.sin].forEach((t) => t.dispose()); return Array.from(rotary.frequencies.inverseFrequencies); };
    expect(run(3)).toEqual(original); // within the original length
    const grown = run(8);
    expect(grown).not.toEqual(original);
    expect(grown[1]!).toBeLessThan(original[1]!); // longer: lower frequencies
    expect(run(6)).toEqual(grown); // shorter than the longest seen, still past the original: kept
    expect(run(2)).toEqual(original); // below the original: reset
    rotary.dispose();
  });

  it('refuses position ids that are not int32 [B, T], and use after dispose', async () => {
    await useBackend('cpu');
    const rotary = new RotaryEmbedding({ headDim: 8 });
    const floats = tensor2d([[0, 1]]);
    expect(() => rotary.forward(floats)).toThrow(InvalidArgumentError);
    expect(() => rotary.forward(floats)).toThrow(/^RotaryEmbedding\.forward: 'positionIds' must be/);
    floats.dispose();
    rotary.dispose();
    const ids = positions(2);
    expect(() => rotary.forward(ids)).toThrow(/after dispose/);
    ids.dispose();
  });
});
