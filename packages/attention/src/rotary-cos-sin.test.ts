import { beforeAll, describe, expect, it } from 'vitest';
import { tensor, tensor2d } from '@tensorflow/tfjs-core';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { rotaryCosSin } from './rotary-cos-sin.js';

beforeAll(() => useBackend('cpu'));

const frequencies = { ropeType: 'default', rotaryDim: 4, inverseFrequencies: new Float32Array([1, 0.5]), attentionScaling: 1 } as const;

describe('rotaryCosSin', () => {
  it('gives each row its own angles p · inv_freq, each pair twice (rotate_half layout), scaled by attentionScaling', async () => {
    const ids = tensor2d([[0, 2], [3, 0]], undefined, 'int32');
    const { cos, sin } = rotaryCosSin(ids, { ...frequencies, attentionScaling: 0.5 });
    expect(cos.shape).toEqual([2, 2, 4]);
    const angles = [0, 2, 3, 0].flatMap((p) => [p * 1, p * 0.5, p * 1, p * 0.5]); // [B, T] positions -> [B, T, R]
    expect(maxDifference(await cos.data(), angles.map((a) => 0.5 * Math.cos(a))).maxAbsDiff).toBeLessThan(1e-7);
    expect(maxDifference(await sin.data(), angles.map((a) => 0.5 * Math.sin(a))).maxAbsDiff).toBeLessThan(1e-7);
    expect(await leaksOf(() => Object.values(rotaryCosSin(ids, frequencies)).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    [ids, cos, sin].forEach((t) => t.dispose());
  });

  it('checks the position ids and the frequencies', () => {
    const [ids, flat] = [tensor2d([[0, 1]], undefined, 'int32'), tensor([0, 1], undefined, 'int32')];
    expect(thrown(() => rotaryCosSin(flat, frequencies)).message).toMatch(/^rotaryCosSin: 'positionIds' must be an int32 tensor of rank 2 \[B, T\]; received int32 tensor of rank 1 \[2\]/);
    expect(thrown(() => rotaryCosSin(ids, { ...frequencies, inverseFrequencies: [1, 0.5] as never })).message).toBe("rotaryCosSin: 'frequencies.inverseFrequencies' must be a non-empty Float32Array [R / 2]; received array [1,0.5].");
    expect(thrown(() => rotaryCosSin(ids, undefined as never))).toBeInstanceOf(InvalidArgumentError);
    [ids, flat].forEach((t) => t.dispose());
  });
});
