import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { RoFormerSinusoidalPositions } from './roformer-sinusoidal-positions.js';

beforeAll(() => useBackend('cpu'));

describe('RoFormerSinusoidalPositions.rotaryTables', () => {
  it('gives [1, T, D] tables for 1 ≤ T ≤ M', () => {
    const positions = new RoFormerSinusoidalPositions(8, 4);
    const { cos, sin } = positions.rotaryTables(3);
    expect([cos.shape, sin.shape]).toEqual([[1, 3, 4], [1, 3, 4]]);
    [cos, sin, positions].forEach((t) => t.dispose());
  });

  it.each<[unknown, string]>([
    [9, "RoFormerSinusoidalPositions.rotaryTables: 'length' must be an integer from 1 to 8; received number 9."],
    [0, "RoFormerSinusoidalPositions.rotaryTables: 'length' must be an integer from 1 to 8; received number 0."],
    [null, "RoFormerSinusoidalPositions.rotaryTables: 'length' must be an integer from 1 to 8; received null."],
    ['3', "RoFormerSinusoidalPositions.rotaryTables: 'length' must be an integer from 1 to 8; received string '3'."],
  ])('refuses length %s by name, leaking nothing', async (length, message) => {
    const positions = new RoFormerSinusoidalPositions(8, 4);
    let error: Error | undefined;
    expect(await leaksOf(() => { error = thrown(() => positions.rotaryTables(length as number)); })).toEqual({ tensors: 0, bytes: 0 });
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error?.message).toBe(message);
    positions.dispose();
  });
});
