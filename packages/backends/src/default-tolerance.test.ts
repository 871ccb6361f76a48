import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { defaultTolerance } from './default-tolerance.js';

describe('defaultTolerance', () => {
  it('scales with the largest finite reference value, never below the relative bound itself', () => {
    expect(defaultTolerance('cpu', [0.5, -0.25])).toBe(1e-4);
    expect(defaultTolerance('wasm', [0.5, -20])).toBeCloseTo(2e-3, 12);
    expect(defaultTolerance('webgl', [300, NaN, -Infinity])).toBeCloseTo(0.3, 12);
    expect(defaultTolerance('webgpu', new Float32Array(0))).toBe(1e-3);
  });

  it('refuses an unknown backend or a non-array reference', () => {
    expect(thrown(() => defaultTolerance('tpu' as never, [1]))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => defaultTolerance('cpu', 3 as never)).message).toBe("defaultTolerance: 'expected' must be an array or typed array of numbers; received number 3.");
  });

  it('refuses a backend that is no name and a list with a hole', () => {
    expect(() => defaultTolerance({} as never, [1])).toThrow(/^defaultTolerance: 'backend' must be one of cpu, wasm, webgl, webgpu/);
    expect(() => defaultTolerance('cpu', [1, , 2] as never)).toThrow("defaultTolerance: 'expected[1]' must be a number (the list has a hole there); received nothing."); // eslint-disable-line no-sparse-arrays
  });
});
