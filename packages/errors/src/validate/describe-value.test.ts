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

describe('describeValue never throws', () => {
  it('describes circular arrays, symbols, bigints, functions and revoked proxies, bounded', () => {
    const c: unknown[] = [];
    c.push(c);
    expect(describeValue(c)).toBe('array [[circular]]');
    expect(describeValue(Symbol('s'))).toBe('symbol s');
    expect(describeValue(Symbol())).toBe('symbol');
    expect(describeValue(-5n)).toBe('bigint -5n');
    expect(describeValue(true)).toBe('boolean true');
    expect(describeValue(() => 1)).toBe('function');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(typeof describeValue(proxy)).toBe('string');
    expect(describeValue([Symbol('a'), 1n, { a: 1 }])).toBe('array [Symbol(a),1n,Object]');
    expect(describeValue(Array.from({ length: 10_000 }, (_, i) => i)).length).toBeLessThanOrEqual(120);
    expect(describeValue(new Array(1e6).fill('x'.repeat(1000))).length).toBeLessThanOrEqual(120);
  });
});
