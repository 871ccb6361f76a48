import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { checkFlatArray } from './check-flat-array.js';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';

describe('checkFlatArray', () => {
  it('passes a typed array of the kind and length, and names the argument otherwise', () => {
    const a = Int8Array.of(1, 2, 3);
    expect(checkFlatArray(a, 'Int8Array', 3, 'f', 'a')).toBe(a);
    expect(() => checkFlatArray([1, 2, 3], 'Int8Array', 3, 'f', 'a')).toThrow(/'a' must be an Int8Array/);
    expect(() => checkFlatArray(Float32Array.of(1), 'Int8Array', 1, 'f', 'a')).toThrow(InvalidArgumentError);
    expect(() => checkFlatArray(a, 'Int8Array', 4, 'f', 'a')).toThrow(/at least 4 elements; received 3/);
  });

  it('guards the references: short or mistyped operands are typed errors, not reads past the end', () => {
    expect(() => int8MatMulReference(Int8Array.of(1, 2), Int8Array.of(3), { rows: 1, cols: 1, depth: 2 })).toThrow(/int8MatMulReference: 'b' must be at least 2 elements/);
    expect(() => int8MatMulReference(Int8Array.of(1), Int8Array.of(1), { rows: 1, cols: 1, depth: -1 })).toThrow(/shape\.depth/);
    expect(() => dequantizeAccumulators(Int32Array.of(1), Float32Array.of(1), Float32Array.of(1, 2))).toThrow(/'accumulators' must be at least 2 elements/);
  });
});
