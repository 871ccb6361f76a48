import { describe, expect, it } from 'vitest';
import { AttnkitError } from './attnkit-error.js';
import { InvalidArgumentError } from './invalid-argument-error.js';
import { UseAfterDisposeError } from './use-after-dispose-error.js';

describe('the shared errors', () => {
  it('InvalidArgumentError says what was expected, what was received and how to fix it', () => {
    const e = new InvalidArgumentError({ caller: 'paddingMask', argument: 'lengths', expected: 'a rank-1 tensor [B]', received: 'rank 2 [2, 3]', hint: 'Flatten it.' });
    expect(e.message).toBe("paddingMask: 'lengths' must be a rank-1 tensor [B]; received rank 2 [2, 3]. Flatten it.");
    expect(e).toMatchObject({ name: 'InvalidArgumentError', code: 'ATTNKIT_INVALID_ARGUMENT', caller: 'paddingMask', argument: 'lengths' });
    expect(e).toBeInstanceOf(AttnkitError);
    expect(e).toBeInstanceOf(Error);
  });

  it('UseAfterDisposeError names the call', () => {
    const e = new UseAfterDisposeError('AdditiveScorer.score');
    expect([e.name, e.code, e.caller]).toEqual(['UseAfterDisposeError', 'ATTNKIT_USE_AFTER_DISPOSE', 'AdditiveScorer.score']);
    expect(e.message).toBe('AdditiveScorer.score: called after dispose() freed its weights. Create a new instance instead.');
  });

  it('AttnkitError keeps the cause', () => {
    const cause = new Error('inner');
    expect(new AttnkitError('ATTNKIT_X', 'outer', { cause }).cause).toBe(cause);
  });
});

describe('message parts that are not strings', () => {
  it('InvalidArgumentError and UseAfterDisposeError describe a Symbol or object name instead of throwing', () => {
    const e = new InvalidArgumentError({ caller: Symbol('c') as never, argument: { toString: () => { throw new Error('no'); } } as never, expected: 'x', received: 'y' });
    expect(e.message).toBe("symbol c: 'Object' must be x; received y.");
    expect(new UseAfterDisposeError(Symbol() as never).message).toBe('symbol: called after dispose() freed its weights. Create a new instance instead.');
  });
});
