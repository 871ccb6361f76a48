import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkInt8Weight } from './int8-weight.js';

describe('checkInt8Weight', () => {
  it('accepts a consistent weight and returns it', () => {
    const weight = { values: new Int8Array(6), scales: new Float32Array(2), inFeatures: 3, outFeatures: 2 };
    expect(checkInt8Weight(weight, 'f', 'weight')).toBe(weight);
  });

  it.each([
    [null, "f: 'weight' must be an Int8Weight { values: Int8Array [M, K], scales: Float32Array [M], inFeatures: K, outFeatures: M } (quantizeWeightPerChannel makes one); received null."],
    [{ values: new Float32Array(6), scales: new Float32Array(2), inFeatures: 3, outFeatures: 2 }, "f: 'weight' must be an Int8Weight { values: Int8Array [M, K], scales: Float32Array [M], inFeatures: K, outFeatures: M } (quantizeWeightPerChannel makes one); received { values: Float32Array, scales: Float32Array, inFeatures: number 3, outFeatures: number 2 }."],
    [{ values: new Int8Array(5), scales: new Float32Array(2), inFeatures: 3, outFeatures: 2 }, "f: 'weight' must be values of length M·K = 2·3 = 6 and scales of length M = 2; received values of length 5 and scales of length 2."],
  ])('refuses %#', (weight, message) => {
    const error = thrown(() => checkInt8Weight(weight, 'f', 'weight'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
