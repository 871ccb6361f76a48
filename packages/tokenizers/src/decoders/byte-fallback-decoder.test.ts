import { describe, expect, it } from 'vitest';
import { byteFallbackDecoder } from './byte-fallback-decoder.js';

describe('byteFallbackDecoder', () => {
  it('decodes runs of byte tokens, one U+FFFD per byte of an invalid run, a byte-order mark kept (tokenizers 0.23 ByteFallback)', () => {
    expect(byteFallbackDecoder(['<0xE2>', '<0x96>', '<0x81>', 'a', '<0xFF>', '<0xC3>', 'b', '<0xef>', '<0xbb>', '<0xbf>']).join('')).toBe('▁a\ufffd\ufffdb\ufeff');
  });
});
