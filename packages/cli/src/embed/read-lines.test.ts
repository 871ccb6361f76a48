import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLines } from './read-lines.js';

const folder = mkdtempSync(join(tmpdir(), 'attnkit-lines-'));
function file(name: string, content: string | Buffer): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}
async function lines(path: string, max?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const line of readLines(path, max)) out.push(line.text);
  return out;
}

describe('readLines', () => {
  it.each([
    ['LF with a final newline', 'a\nb\n', ['a', 'b']],
    ['no final newline', 'a\nb', ['a', 'b']],
    ['CRLF', 'a\r\nb\r\n', ['a', 'b']],
    ['blank lines kept', 'a\n\n\nb\n', ['a', '', '', 'b']],
    ['a byte-order mark dropped', '\uFEFFa\nb', ['a', 'b']],
    ['an empty file', '', []],
    ['a lone newline: one empty line', '\n', ['']],
  ])('%s', async (name, content, expected) => {
    expect(await lines(file(`${name}.txt`, content))).toEqual(expected);
  });

  it('keeps multi-byte characters whole across 1 MiB chunk boundaries, numbers lines and reports bytes read', async () => {
    const row = 'naïve café — 日本語 😀 ';
    const texts = Array.from({ length: 60_000 }, (_, i) => `${i} ${row}`);
    const content = `${texts.join('\n')}\n`;
    const path = file('big.txt', content);
    const seen: string[] = [];
    let last = { number: 0, bytesRead: 0 };
    for await (const line of readLines(path)) {
      seen.push(line.text);
      expect(line.number).toBe(last.number + 1);
      expect(line.bytesRead).toBeGreaterThanOrEqual(last.bytesRead);
      last = line;
    }
    expect(Buffer.byteLength(content)).toBeGreaterThan(2 << 20);
    expect(seen).toEqual(texts);
    expect(last.bytesRead).toBe(Buffer.byteLength(content));
  });

  it('refuses a line longer than the limit (a binary file read by mistake)', async () => {
    await expect(lines(file('long.txt', 'x'.repeat(3 << 20)), 1 << 20)).rejects.toThrow(/line 1 is longer than 1048576 bytes: is this a text file\?/);
  });
});
