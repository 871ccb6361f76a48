import { setBackend } from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRows, fixtureTensor, specOf } from './fixture-tensor.js';

beforeAll(() => setBackend('cpu'));

describe('fixtureTensor / specOf', () => {
  it('rebuilds shape, dtype and values, booleans included', async () => {
    const mask = fixtureTensor({ shape: [1, 3], dtype: 'bool', data: [1, 0, 1] });
    expect([mask.dtype, mask.shape, Array.from(await mask.data())]).toEqual(['bool', [1, 3], [1, 0, 1]]);
    mask.dispose();
  });
  it('reads the strings JSON needs for ±Infinity and NaN', async () => {
    const additive = fixtureTensor({ shape: [3], dtype: 'float32', data: [0, '-Infinity', 'NaN'] });
    expect(Array.from(await additive.data())).toEqual([0, -Infinity, NaN]);
    additive.dispose();
  });
  it('names a missing input', () => {
    expect(() => specOf({ q: 3 }, 'q')).toThrow("fixture has no tensor 'q'");
    expect(() => specOf({}, 'k')).toThrow("fixture has no tensor 'k'");
  });
});

describe('fixtureRows', () => {
  it('splits a rank-2 input into rows, and refuses another rank', () => {
    const inputs = { ids: { shape: [2, 3], dtype: 'int32', data: [1, 2, 3, 4, 5, 6] }, flat: { shape: [3], dtype: 'int32', data: [1, 2, 3] } };
    expect(fixtureRows(inputs as never, 'ids')).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(() => fixtureRows(inputs as never, 'flat')).toThrow(/rows need rank 2/);
  });
});
