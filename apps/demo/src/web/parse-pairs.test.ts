import { describe, expect, it } from 'vitest';
import { PageInputError } from './page-input-error.js';
import { parsePairs } from './parse-pairs.js';

describe('parsePairs', () => {
  it('reads one pair a line, separated by a tab or " | ", trimming and skipping blank lines', () => {
    expect(parsePairs('The cat sat. | A cat was sitting.\n\n  It rains.\tRain is falling.  \n')).toEqual([
      { anchor: 'The cat sat.', positive: 'A cat was sitting.' },
      { anchor: 'It rains.', positive: 'Rain is falling.' },
    ]);
  });

  it('keeps a "|" without spaces around it inside a sentence', () => {
    expect(parsePairs('a|b | c\nd | e')[0]).toEqual({ anchor: 'a|b', positive: 'c' });
  });

  it('names the line with no separator, too many or an empty side', () => {
    const fails = (text: string) => {
      try {
        parsePairs(text);
      } catch (error) {
        expect(error).toBeInstanceOf(PageInputError);
        return error as PageInputError;
      }
      throw new Error('no error');
    };
    const missing = fails('a | b\n\njust one sentence');
    expect(missing.message).toBe('Pairs, line 3: "just one sentence" has no separator. Write one pair a line: two sentences separated by a tab or " | ".');
    expect([missing.field, missing.line]).toEqual(['pairs', 3]);
    expect(fails('a | b | c\nd | e').message).toMatch(/^Pairs, line 1: "a \| b \| c" has 2 separators\./);
    expect(fails('a | b\nc |  ').message).toBe('Pairs, line 2: "c |" has an empty side. Write one pair a line: two sentences separated by a tab or " | ".');
    expect(fails('a | b\n| d').message).toMatch(/^Pairs, line 2: "\| d" has an empty side\./);
    expect(fails('a | b\nc\t ').message).toMatch(/^Pairs, line 2: "c" has no separator/); // a tab at the end is trimmed: nothing shows it
    expect(fails('a | b\nc | \td').message).toMatch(/^Pairs, line 2: "c \| \td" has 2 separators/);
  });

  it('needs at least two pairs', () => {
    expect(() => parsePairs('a | b')).toThrow(new PageInputError('Pairs: found 1 pair; give at least 2, one a line (each pair is contrasted with the others).', { field: 'pairs' }));
    expect(() => parsePairs('\n  \n')).toThrow(/found 0 pairs/);
  });
});
