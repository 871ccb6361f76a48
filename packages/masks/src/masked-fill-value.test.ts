import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { maskedFillValue } from './masked-fill-value.js';

beforeAll(() => useBackend('cpu'));

describe('maskedFillValue', () => {
  it('is -1e9 for float32 storage and -3e4 for half floats: finite, never -Infinity', () => {
    expect(maskedFillValue()).toBe(-1e9);
    expect(maskedFillValue('float32', 'wasm')).toBe(-1e9);
    expect(maskedFillValue('float16')).toBe(-3e4);
    // exp(fill - max) underflows to exactly 0 in float32, and |fill| + 35000 still fits float16's 65504
    expect(Math.fround(Math.exp(-1e9 - 100))).toBe(0);
    expect(Math.fround(Math.exp(-3e4 + 100))).toBe(0);
    expect(Math.abs(maskedFillValue('float16')) + 35_000).toBeLessThan(65_504);
  });
  it('rejects unknown dtypes', () => {
    const error = thrown(() => maskedFillValue('float64' as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("maskedFillValue: 'dtype' must be 'float32' or 'float16'; received float64.");
  });
  it('names a dtype or backend it cannot use, a tensor included, without reading it', () => {
    const gone = zeros([2]);
    gone.dispose();
    expect(thrown(() => maskedFillValue(gone as never)).message).toMatch(/^maskedFillValue: 'dtype' must be 'float32' or 'float16'; received a disposed/);
    for (const backend of [null, 1, '', {}]) {
      const error = thrown(() => maskedFillValue('float32', backend as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^maskedFillValue: 'backend' must be a backend name/);
    }
  });
});
