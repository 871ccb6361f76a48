import { describe, expect, it } from 'vitest';
import { ctcDecoder } from './ctc-decoder.js';

describe('ctcDecoder', () => {
  it('collapses repeats, drops padding, and with cleanup turns delimiters into spaces (tokenizers 0.23 CTC decoder)', () => {
    expect(ctcDecoder('<pad>', '|', true)(['h', 'h', 'e', '<pad>', 'l', 'l', '<pad>', 'l', 'o', '|', 'w', '|', '|']).join('')).toBe('hello w ');
    expect(ctcDecoder('<pad>', '|', false)(['a', 'a', '|', 'b']).join('')).toBe('a|b');
  });
});
