import { describe, expect, it } from 'vitest';
import { findNonFinite } from './find-non-finite.js';

describe('findNonFinite', () => {
  it('finds NaN and ±Infinity in numbers, arrays, typed arrays and plain objects, with the path', () => {
    expect(findNonFinite(NaN)).toEqual({ value: NaN, path: '' });
    expect(findNonFinite([[0, 1], [2, -Infinity]])).toEqual({ value: -Infinity, path: '[1][1]' });
    expect(findNonFinite(Float32Array.of(1, Infinity))).toEqual({ value: Infinity, path: '[1]' });
    expect(findNonFinite({ shape: [2], values: [1, NaN] })).toEqual({ value: NaN, path: '.values[1]' });
  });

  it('says undefined for finite values, strings, booleans and class instances', () => {
    expect(findNonFinite({ agree: true, diff: 0, text: 'NaN', ids: Int32Array.of(1, 2) })).toBeUndefined();
    expect(findNonFinite(new (class { x = NaN })())).toBeUndefined();
    expect(findNonFinite(undefined)).toBeUndefined();
  });
});
