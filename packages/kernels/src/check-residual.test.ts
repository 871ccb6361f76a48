import { cast, randomNormal, tidy, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { checkResidual } from './check-residual.js';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';

beforeAll(() => useTfjsBackend('cpu'));

describe('checkResidual', () => {
  it("returns a float32 tensor of the output's shape", () => {
    const r = zeros([2, 3, 4]);
    expect(checkResidual(r, [2, 3, 4], 'test')).toBe(r);
    r.dispose();
  });

  it('refuses another shape, another dtype, a non-tensor and a bad output shape with typed errors naming both shapes, leaking nothing', async () => {
    const leaks = await leaksOf(() => {
      const wide = randomNormal([2, 5]);
      const ints = tidy(() => cast(randomNormal([2, 4]), 'int32'));
      const flat = randomNormal([8]);
      expect(thrown(() => checkResidual(wide, [2, 4], 'int8MatMul')).message).toBe("int8MatMul: 'residual' must be a float32 tensor of the output's shape [2, 4]; received [2, 5].");
      expect(thrown(() => checkResidual(flat, [2, 4], 'int8MatMul')).message).toMatch(/received \[8\]/);
      expect(thrown(() => checkResidual(ints, [2, 4], 'int8MatMul')).message).toMatch(/^int8MatMul: 'residual' must be a float32 tensor/);
      expect(thrown(() => checkResidual([1, 2], [2], 'int8MatMul'))).toBeInstanceOf(InvalidArgumentError);
      expect(thrown(() => checkResidual(wide, 'x' as never, 'int8MatMul')).message).toMatch(/^checkResidual: 'outShape' must be the product's output shape/);
      expect(thrown(() => checkResidual(wide, [2, -1], 'int8MatMul'))).toBeInstanceOf(InvalidArgumentError);
      [wide, ints, flat].forEach((t) => t.dispose());
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
  });
});
