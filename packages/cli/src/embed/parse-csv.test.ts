import { describe, expect, it } from 'vitest';
import { parseCsv } from './parse-csv.js';

async function rows(text: string): Promise<{ fields: readonly string[]; line: number }[]> {
  async function* lines() {
    let number = 0;
    for (const t of text.split('\n')) yield { number: ++number, text: t, bytesRead: 0 };
  }
  const out = [];
  for await (const { fields, line } of parseCsv(lines())) out.push({ fields, line });
  return out;
}

describe('parseCsv (RFC 4180)', () => {
  it('splits fields, keeps empty ones, and reads quoted commas, doubled quotes and newlines', async () => {
    expect(await rows('id,text\n1,plain\n2,"a, b"\n3,"say ""hi"""\n4,"two\nlines"\n5,\n,""')).toEqual([
      { fields: ['id', 'text'], line: 1 },
      { fields: ['1', 'plain'], line: 2 },
      { fields: ['2', 'a, b'], line: 3 },
      { fields: ['3', 'say "hi"'], line: 4 },
      { fields: ['4', 'two\nlines'], line: 5 },
      { fields: ['5', ''], line: 7 },
      { fields: ['', ''], line: 8 },
    ]);
  });

  it('a quoted field may hold an empty line and end a later line', async () => {
    expect((await rows('"a\n\nb",c'))[0]).toEqual({ fields: ['a\n\nb', 'c'], line: 1 });
  });

  it.each([
    ['a quote inside an unquoted field', 'a,b"c', /^line 1: a quote inside an unquoted field/],
    ['text after a closing quote', '"a"b,c', /^line 1: text after a closing quote/],
    ['an unclosed quote at the end of the file', 'x\n"open,\nmore', /^line 2: the file ends inside a quoted field/],
  ])('%s is a SyntaxError naming the line', async (_, text, message) => {
    await expect(rows(text)).rejects.toThrow(SyntaxError);
    await expect(rows(text)).rejects.toThrow(message);
  });
});
