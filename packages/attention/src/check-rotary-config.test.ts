import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkRotaryConfig } from './check-rotary-config.js';

describe('checkRotaryConfig', () => {
  it('fills in the defaults of the default rope type and derives the rotated width', () => {
    const resolved = checkRotaryConfig({ headDim: 8 }, 'f');
    expect(resolved).toMatchObject({ ropeType: 'default', headDim: 8, rotaryDim: 8, ropeTheta: 10000, factor: 1, maxPositionEmbeddings: undefined });
    expect(checkRotaryConfig({ headDim: 16, partialRotaryFactor: 0.5 }, 'f').rotaryDim).toBe(8);
    expect(checkRotaryConfig({ headDim: 64, ropeType: 'linear', factor: 4 }, 'f')).toMatchObject({ ropeType: 'linear', factor: 4, rotaryDim: 64 });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['an unknown rope type, with the likely one', { headDim: 8, ropeType: 'yarm' }, /^f: 'ropeType' must be one of 'default'.*received string 'yarm'\. Did you mean 'yarn'\?/],
    ['a null rope type (never read as absent)', { headDim: 8, ropeType: null }, /^f: 'ropeType' must be one of 'default'.*received null/],
    ['a null theta (never read as absent)', { headDim: 8, ropeTheta: null }, /^f: 'ropeTheta' must be a finite number > 0; received null/],
    ['a key the rope type does not read', { headDim: 8, factor: 2 }, /^f: 'factor' must be absent: rope_type 'default' reads .*received number 2\. It is a parameter of rope_type/],
    ['an odd rotated width', { headDim: 6, partialRotaryFactor: 0.5 }, /^f: 'partialRotaryFactor' must be a rotated width floor\(headDim · partialRotaryFactor\) that is even and ≥ 2; it is 3 here/],
    ['dynamic without maxPositionEmbeddings', { headDim: 8, ropeType: 'dynamic', factor: 2 }, /^f: 'maxPositionEmbeddings' must be an integer ≥ 1 \(rope_type 'dynamic' scales past it\)/],
    ['a factor below 1', { headDim: 8, ropeType: 'linear', factor: 0.5 }, /^f: 'factor' must be a finite number ≥ 1; received number 0\.5/],
  ])('refuses %s with a typed error naming the key', (_, config, message) => {
    const error = thrown(() => checkRotaryConfig(config as never, 'f'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(message);
  });

  it('names keys as the caller says (config.json names)', () => {
    expect(thrown(() => checkRotaryConfig({ headDim: 8, ropeTheta: -1 }, 'g', (key) => `rope.${key}`)).message).toMatch(/^g: 'rope\.ropeTheta' must be a finite number > 0; received number -1/);
  });
});
