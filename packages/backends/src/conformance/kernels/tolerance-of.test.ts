import { describe, expect, it } from 'vitest';
import { toleranceOf } from './tolerance-of.js';

describe('toleranceOf', () => {
  it('is the float32 bound at 32 bits, plus half-precision rounding of the largest output at 16', () => {
    expect(toleranceOf({ values: Float64Array.of(0.5, -2, 1), float32Bound: 1e-7 })).toEqual({ 32: 1e-7, 16: 1e-7 + 2 * 2 ** -11 });
    expect(toleranceOf({ values: new Float64Array(0), float32Bound: 0 })).toEqual({ 32: 0, 16: 0 });
  });
});
