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
});
