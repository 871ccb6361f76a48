import { describe, expect, it } from 'vitest';
import { byteFallbackDecoder, isByteFallbackToken } from './byte-fallback-decoder.js';

describe('byteFallbackDecoder', () => {
  it('decodes runs of byte tokens, one U+FFFD per byte of an invalid run, a byte-order mark kept (tokenizers 0.23 ByteFallback)', () => {
    expect(byteFallbackDecoder(['<0xE2>', '<0x96>', '<0x81>', 'a', '<0xFF>', '<0xC3>', 'b', '<0xef>', '<0xbb>', '<0xbf>']).join('')).toBe('▁a\ufffd\ufffdb\ufeff');
  });

  it('tells byte pieces from other tokens, as the decoder reads them', () => {
    expect(['<0xE3>', '<0xff>', '<0x+F>', '<0xE3', '0xE3', '<0xGG>', '▁the', '<0xE3A>'].map(isByteFallbackToken)).toEqual([true, true, true, false, false, false, false, false]);
    expect(byteFallbackDecoder(['<0x4C>', '<0xFC>']).join('')).toBe('\ufffd\ufffd'); // a valid byte in an invalid run
  });
});
