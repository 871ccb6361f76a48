import { describe, expect, it } from 'vitest';
import { jsInt8Gemm } from './js-int8-gemm.js';
import { expectExactOnAllShapes, expectQuantizerMatches, INT8_SHAPES } from './testing/int8-cases.js';

describe('jsInt8Gemm', () => {
  it('equals int8MatMulReference bit for bit on every shape: int32 accumulators and float32 outputs', () => {
    expect(expectExactOnAllShapes(jsInt8Gemm)).toBe(2 * INT8_SHAPES.length);
  });

  it('quantizes float rows exactly as quantizeRows does (ties, tails, tiny and huge rows) and refuses non-finite x', () => expectQuantizerMatches(jsInt8Gemm));

  it('quantizes activations to 8 bits, like the simd kernel', () => expect([jsInt8Gemm.name, jsInt8Gemm.activationLevels]).toEqual(['js', 127]));
});
