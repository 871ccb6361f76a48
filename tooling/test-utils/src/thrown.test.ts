import { describe, expect, it } from 'vitest';
import { thrown } from './thrown.js';

describe('thrown', () => {
  it('returns the thrown error', () => expect(thrown(() => { throw new RangeError('x'); })).toBeInstanceOf(RangeError));
  it('fails when nothing is thrown or a non-Error is thrown', () => {
    expect(() => thrown(() => 1)).toThrow('expected the call to throw, but it returned normally');
    expect(() => thrown(() => { throw 'text'; })).toThrow('expected an Error to be thrown, got text');
  });
});
