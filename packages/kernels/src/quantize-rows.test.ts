import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { quantizeRows } from './quantize-rows.js';

describe('quantizeRows', () => {
  it('scales each row by max|x| / levels and rounds half away from zero', () => {
    const { values, scales } = quantizeRows(Float32Array.of(0.5, -1, 0.25, 2, -2, 1 / 127), 2, 3, 127, 'f', 'x');
    expect(Array.from(scales)).toEqual([Math.fround(1 / 127), Math.fround(2 / 127)]);
    expect(Array.from(values)).toEqual([64, -127, 32, 127, -127, 1]); // 63.5 -> 64 and 31.75 -> 32; 0.5 -> 1 (half away from zero)
  });

  it('uses [-63, 63] for 7-bit levels, keeps the sign symmetric, and maps a zero row to scale 0 and zeros', () => {
    const { values, scales } = quantizeRows(Float32Array.of(-63, 63, 31.5, -31.5, 0, 0, 0, 0), 2, 4, 63, 'f', 'x');
    expect(Array.from(values)).toEqual([-63, 63, 32, -32, 0, 0, 0, 0]); // scale 1: ±31.5 -> ±32
    expect(Array.from(scales)).toEqual([1, 0]);
  });

  it('refuses NaN and ±Infinity with a typed error naming the first one', () => {
    const error = thrown(() => quantizeRows(Float32Array.of(1, 2, Number.NaN, Infinity), 2, 2, 127, 'int8MatMul', 'x'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("int8MatMul: 'x' must be finite values only (int8 quantization scales each row by its largest magnitude); received NaN at flat index 2. Replace or mask the non-finite values first.");
  });

  it('names whatever argument name it is given without throwing on it', () => {
    const error = thrown(() => quantizeRows(Float32Array.of(1), -1, 1, 127, 'f', Symbol('w') as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("f: 'symbol w rows' must be an integer ≥ 0; received number -1.");
    expect(thrown(() => quantizeRows([1, {}] as never, 1, 2, 127, 'f', 'x')).message).toContain('received Object at flat index 1');
  });
});
