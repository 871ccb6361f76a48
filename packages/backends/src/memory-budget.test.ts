import { describe, expect, it } from 'vitest';
import { checkMemoryBudget, memoryBudget } from './memory-budget.js';
import { ResourceLimitError, formatBytes } from '@attnkit/errors';
import { useBackend } from './use-backend.js';

describe('memoryBudget and checkMemoryBudget', () => {
  it('budgets 2 GiB per operation on cpu and wasm', async () => {
    await useBackend('cpu');
    expect(memoryBudget('cpu').bytes).toBe(2 ** 31);
    expect(memoryBudget('wasm')).toMatchObject({ bytes: 2 ** 31, tensorBytes: 2 ** 31 });
  });

  it('passes work inside the budget and refuses work past it before allocating, naming size and limit', async () => {
    await useBackend('cpu');
    expect(() => checkMemoryBudget('test', 'the scores', [1, 12, 512, 512], 3)).not.toThrow();
    expect(() => checkMemoryBudget('test', 'the scores', [1, 1, 16384, 16384], 2)).not.toThrow(); // exactly 2 GiB
    expect(() => checkMemoryBudget('test', 'the scores', [1, 1, 16384, 16385], 2)).toThrow(ResourceLimitError);
    expect(() => checkMemoryBudget('test', 'the scores', [1, 1, 40000, 40000], 3, 'wasm')).toThrow(
      'test: the scores [1, 1, 40000, 40000] float32 (3 at once) need 17.9 GiB, more than the 2.0 GiB wasm allows (the wasm32 heap ends at 4 GiB; 2 GiB per operation). Split the work: shorter sequences, fewer heads, or smaller batches.',
    );
  });

  it('formats sizes briefly', () => {
    expect([formatBytes(512), formatBytes(3 * 2 ** 20), formatBytes(6.4e9)]).toEqual(['1 KiB', '3.0 MiB', '6.0 GiB']);
  });

  it('refuses a caller, a description, a count, a hint or a named backend that is not one, and a shape with a hole', () => {
    expect(() => checkMemoryBudget('', 'x', [1])).toThrow(/^checkMemoryBudget: 'caller' must be the name of the calling function/);
    expect(() => checkMemoryBudget('f', 3 as never, [1])).toThrow(/^f: 'what' must be what is being allocated/);
    expect(() => checkMemoryBudget('f', 'x', [1], 0)).toThrow(/^f: 'count' must be how many such tensors at once/);
    expect(() => checkMemoryBudget('f', 'x', [1], 1, undefined, 3 as never)).toThrow(/^f: 'hint' must be a hint/);
    expect(() => checkMemoryBudget('f', 'x', [1, , 1] as never)).toThrow(/^f: 'shape' must be a list of non-negative integers/); // eslint-disable-line no-sparse-arrays
    expect(() => memoryBudget('gpu')).toThrow(/unknown backend 'gpu'/);
  });
});
