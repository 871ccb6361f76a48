import { describe, expect, it } from 'vitest';
import { AttnkitError } from './attnkit-error.js';
import { InvalidArgumentError } from './invalid-argument-error.js';
import { UseAfterDisposeError } from './use-after-dispose-error.js';
import { ResourceLimitError } from './resource-limit-error.js';

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

describe('errors built from anything: reporting never throws', () => {
  it('AttnkitError describes a code that is no string and ignores options that are no object', () => {
    const e = new AttnkitError(null as never, 'm', 'x' as never);
    expect([e.code, e.message, e.cause]).toEqual(['null', 'm', undefined]);
  });

  it('ResourceLimitError names every part it was given, NaN for sizes that are no number', () => {
    const e = new ResourceLimitError(null as never);
    expect(e.message).toBe('undefined: undefined need undefined, more than the undefined undefined allows (undefined). Split the work: shorter sequences, fewer heads, or smaller batches.');
    expect([e.caller, e.backend, e.bytes, e.limit]).toEqual(['undefined', 'undefined', NaN, NaN]);
    const f = new ResourceLimitError({ caller: 'f', what: 'the scores', backend: 'cpu', bytes: -1, limit: 'x' as never, rule: 'r', hint: Symbol('h') as never });
    expect(f.message).toBe("f: the scores need number -1, more than the x cpu allows (r). symbol h");
    expect(new ResourceLimitError({ caller: 'f', what: 'the scores', backend: 'cpu', bytes: 2 ** 31, limit: 2 ** 30, rule: 'r' }).message).toBe('f: the scores need 2.0 GiB, more than the 1.0 GiB cpu allows (r). Split the work: shorter sequences, fewer heads, or smaller batches.');
  });
});
