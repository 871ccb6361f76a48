import { describe, expect, it } from 'vitest';
import { codePointSet } from './code-point-set.js';
import { CONTROL, PUNCTUATION } from './rust-unicode-tables.js';

describe('codePointSet', () => {
  it('tests membership in hex ranges, ends included', () => {
    const set = codePointSet('21-2f,3a,1f600-1f64f');
    expect([0x20, 0x21, 0x2f, 0x30, 0x3a, 0x3b, 0x1f600, 0x1f64f, 0x1f650].map(set)).toEqual([false, true, true, false, true, false, true, true, false]);
    expect(codePointSet('')(0)).toBe(false);
  });

  it("reads the library's frozen tables (tokenizers 0.23: U+2E42 is punctuation, U+2E43 (Unicode 10) and '⹐' are not; U+0890 (Cf since Unicode 14) is not a control)", () => {
    const punctuation = codePointSet(PUNCTUATION);
    expect([0x21, 0x24, 0x2e42, 0x2e43, 0x2e50, 0x61].map(punctuation)).toEqual([true, true, true, false, false, false]);
    const control = codePointSet(CONTROL);
    expect([0x00, 0x09, 0x7f, 0x200b, 0x2066, 0xe000, 0x890, 0x378].map(control)).toEqual([true, false, true, true, true, true, false, false]);
  });
});
