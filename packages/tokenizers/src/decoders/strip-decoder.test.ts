import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { stripDecoder } from './strip-decoder.js';

describe('stripDecoder', () => {
  it('removes up to start leading and stop trailing content characters (tokenizers 0.23 Strip decoder)', () => {
    expect(stripDecoder(' ', 1, 0)([' hello', '  world']).join('')).toBe('hello world');
    expect(stripDecoder('x', 0, 2)(['axx', 'axbx']).join('')).toBe('aaxb');
  });

  it('refuses tokens the library panics on (shorter than stop, or cut past themselves)', () => {
    expect(() => stripDecoder('x', 0, 2)(['x'])).toThrow(InvalidArgumentError);
    expect(() => stripDecoder('▁', 1, 1)(['▁'])).toThrow(InvalidArgumentError);
  });
});
