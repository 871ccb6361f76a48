import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { thrown } from '@attnkit/test-utils';
import { checkQueryKey } from './check-query-key.js';

beforeAll(() => useBackend('cpu'));

describe('checkQueryKey', () => {
  it('reports lead shape, lengths and widths', () => {
    const [q, k] = [zeros([2, 3, 4, 5]), zeros([2, 3, 6, 7])];
    expect(checkQueryKey('f', q, k)).toEqual({ lead: [2, 3], queryLength: 4, keyLength: 6, queryDim: 5, keyDim: 7 });
    expect(thrown(() => checkQueryKey('f', q, k, { queryDim: 4 })).message).toBe("f: 'query' must be last dim 4 (the scorer's queryDim); received [2, 3, 4, 5].");
    [q, k].forEach((t) => t.dispose());
  });
  it('checks its dims: an object of positive widths and a boolean sameDim', () => {
    const [q, k] = [zeros([2, 3, 4, 5]), zeros([2, 3, 6, 5])];
    expect(thrown(() => checkQueryKey('f', q, k, null as never)).message).toMatch(/^f: 'dims' must be an object/);
    expect(thrown(() => checkQueryKey('f', q, k, { queryDim: Number.NaN })).message).toMatch(/^f: 'queryDim' must be an integer/);
    expect(thrown(() => checkQueryKey('f', q, k, { keyDim: 0 })).message).toMatch(/^f: 'keyDim' must be an integer/);
    expect(thrown(() => checkQueryKey('f', q, k, { sameDim: null as never })).message).toBe("f: 'sameDim' must be true or false; received null.");
    expect(checkQueryKey('f', q, k, { sameDim: true, queryDim: 5, keyDim: 5 }).keyLength).toBe(6);
    [q, k].forEach((t) => t.dispose());
  });
});
