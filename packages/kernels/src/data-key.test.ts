import { randomNormal, reshape, variable } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { dataKey } from './data-key.js';

describe('dataKey', () => {
  beforeAll(() => useTfjsBackend('cpu'));

  it('is the same for reshapes of one tensor and differs between tensors', () => {
    const x = randomNormal([2, 3]);
    expect(dataKey(reshape(x, [6]))).toBe(dataKey(x));
    expect(dataKey(randomNormal([2, 3]))).not.toBe(dataKey(x));
  });

  it("changes when a Variable's values are assigned (never reused)", () => {
    const v = variable(randomNormal([4]));
    const before = dataKey(v);
    v.assign(randomNormal([4]));
    expect(dataKey(v)).not.toBe(before);
    expect(dataKey(v)).toBeGreaterThan(before);
  });
});
