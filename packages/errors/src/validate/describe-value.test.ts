import '@tensorflow/tfjs-backend-cpu'; // a backend for the tensors these tests make
import { zeros, setBackend } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeValue, formatShape } from './describe-value.js';

beforeAll(() => setBackend('cpu'));

describe('describeValue / formatShape', () => {
  it('describes tensors by dtype, rank and shape, other values by type', () => {
    const x = zeros([2, 5], 'int32');
    expect(describeValue(x)).toBe('int32 tensor of rank 2 [2, 5]');
    x.dispose();
    expect([describeValue(null), describeValue(3), describeValue({}), describeValue(new Map())]).toEqual(['null', 'number 3', 'Object', 'Map']);
    expect(formatShape([1, 2, 3])).toBe('[1, 2, 3]');
  });
});
