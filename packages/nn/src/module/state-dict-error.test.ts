import { describe, expect, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { StateDictError } from './state-dict-error.js';

describe('StateDictError', () => {
  it('lists each kind of problem, shows the first 12 of each and keeps every key in its fields', () => {
    const missingKeys = Array.from({ length: 20 }, (_, i) => `layer.${i}.weight`);
    const error = new StateDictError('Model.loadStateDict', { missingKeys, unexpectedKeys: ['extra'], mismatchedKeys: [{ key: 'w', expected: '[2] float32', received: '[3] float32' }] }, 'Check the prefix.');
    expect(error).toBeInstanceOf(AttnkitError);
    expect([error.name, error.code, error.caller]).toEqual(['StateDictError', 'ATTNKIT_STATE_DICT', 'Model.loadStateDict']);
    expect(error.missingKeys).toHaveLength(20);
    expect(error.message).toBe(
      `Model.loadStateDict: the state dict does not fit the module. 20 missing: ${missingKeys.slice(0, 12).join(', ')}, and 8 more. 1 unexpected: extra. 1 mis-shaped: w (expected [2] float32, received [3] float32). Check the prefix.`,
    );
  });
  it('is built from whatever it is given, so reporting never throws', () => {
    const gone = { toString: () => { throw new Error('unreadable'); } };
    const error = new StateDictError(gone as never, null as never, 1 as never);
    expect(error).toBeInstanceOf(AttnkitError);
    expect([error.missingKeys, error.unexpectedKeys, error.mismatchedKeys]).toEqual([[], [], []]);
    expect(error.message).toBe('Object: the state dict does not fit the module. number 1');
    const holes = new StateDictError('f', { missingKeys: ['a', , 3] as never, unexpectedKeys: 'x' as never, mismatchedKeys: [null] as never }); // eslint-disable-line no-sparse-arrays
    expect(holes.missingKeys).toEqual(['a', 'undefined', 'number 3']);
    expect(holes.message).toBe('f: the state dict does not fit the module. 3 missing: a, undefined, number 3. 1 mis-shaped: null (expected undefined, received undefined).');
  });
});
