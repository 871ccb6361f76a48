import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkWidth } from './check-width.js';

beforeAll(() => useBackend('cpu'));

describe('checkWidth', () => {
  it('passes a float32 tensor whose last axis has the width, and names the width otherwise', () => {
    const x = zeros([2, 4]);
    expect(checkWidth(x, 'Linear.forward', 'x', 4, 'inFeatures')).toBe(x);
    expect(thrown(() => checkWidth(x, 'Linear.forward', 'x', 3, 'inFeatures')).message).toBe("Linear.forward: 'x' must be a float32 tensor [..., inFeatures] with inFeatures = 3; received [2, 4].");
    x.dispose();
  });
  it('refuses a width that is no integer ≥ 0 and describes a name that is no string, reading neither', () => {
    const x = zeros([2, 4]);
    const gone = zeros([1]);
    gone.dispose();
    for (const width of [Number.NaN, null, -1, gone]) {
      const error = thrown(() => checkWidth(x, 'f', 'x', width as never, 'E'));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^checkWidth: 'width' must be the width the last axis must have/);
    }
    expect(thrown(() => checkWidth(x, 'f', 'x', 3, gone as never)).message).toMatch(/^f: 'x' must be a float32 tensor \[\.\.\., a disposed/);
    x.dispose();
  });
});
