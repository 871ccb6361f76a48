import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Linear } from '../layers/linear.js';
import { ModuleList } from './module-list.js';

beforeAll(() => useBackend('cpu'));

describe('ModuleList', () => {
  it('names its modules 0, 1, ... and iterates them in order', async () => {
    const [a, b] = [new Linear(2, 3), new Linear(3, 1)];
    const list = new ModuleList([a, b]);
    expect(list.length).toBe(2);
    expect([...list]).toEqual([a, b]);
    expect([list.at(0), list.at(-1)]).toEqual([a, b]);
    expect(list.namedParameters().map(([n]) => n)).toEqual(['0.weight', '0.bias', '1.weight', '1.bias']);
    expect(await leaksOf(() => new ModuleList([new Linear(4, 4), new Linear(4, 4)]).dispose())).toEqual({ tensors: 0, bytes: 0 });
    list.dispose();
    expect(a.isDisposed && b.isDisposed).toBe(true);
    expect(thrown(() => list.at(0))).toBeInstanceOf(UseAfterDisposeError);
  });

  it('refuses an index out of range or not an integer', () => {
    const list = new ModuleList([new Linear(2, 2)]);
    for (const index of [1, -2, 0.5]) {
      const error = thrown(() => list.at(index));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(`ModuleList.at: 'index' must be an integer from -1 to 0; received ${index}.`);
    }
    for (const [index, received] of [[Symbol(), 'symbol'], [0n, 'bigint 0n'], ['0', "string '0'"]] as const) {
      const error = thrown(() => list.at(index as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(`ModuleList.at: 'index' must be an integer from -1 to 0; received ${received}.`);
    }
    list.dispose();
  });
});
