import { describe, expect, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { SafetensorsError } from './safetensors-error.js';

describe('SafetensorsError', () => {
  it('is an AttnkitError with a stable code and a reason', () => {
    const error = new SafetensorsError('offsets', 'bad.');
    expect(error).toBeInstanceOf(AttnkitError);
    expect([error.name, error.code, error.reason, error.message]).toEqual(['SafetensorsError', 'ATTNKIT_SAFETENSORS', 'offsets', 'safetensors: bad.']);
  });
  it('is built from whatever it is given, so reporting never throws', () => {
    expect(new SafetensorsError('header', { toString: () => { throw new Error('unreadable'); } } as never).message).toBe('safetensors: Object');
  });
});
