import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { inputFormatOf, readRecords, type ReadRecordsOptions } from './read-records.js';

const folder = mkdtempSync(join(tmpdir(), 'attnkit-records-'));
function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}
async function records(path: string, options: ReadRecordsOptions): Promise<{ index: number; id: string | number; text: string }[]> {
  const out = [];
  for await (const { index, id, text } of readRecords(path, options)) out.push({ index, id, text });
  return out;
}

describe('readRecords', () => {
  it('text: every line is a record (blank ones too, so row i is line i + 1), id = line number', async () => {
    expect(await records(file('a.txt', 'first\n\nthird\r\n'), { format: 'text' })).toEqual([
      { index: 0, id: 1, text: 'first' },
      { index: 1, id: 2, text: '' },
      { index: 2, id: 3, text: 'third' },
    ]);
  });

  it('jsonl: strings or objects; text and id fields by name; blank lines skipped; line number as id without one', async () => {
    const path = file('a.jsonl', '"plain"\n\n{"id": "doc-7", "text": "hello"}\n{"body": "x", "key": 3, "text": "ignored"}\n{"text": "no id"}\n');
    expect(await records(path, { format: 'jsonl' })).toEqual([
      { index: 0, id: 1, text: 'plain' },
      { index: 1, id: 'doc-7', text: 'hello' },
      { index: 2, id: 4, text: 'ignored' },
      { index: 3, id: 5, text: 'no id' },
    ]);
    expect(await records(file('b.jsonl', '{"body": "x", "key": 3}\n'), { format: 'jsonl', textField: 'body', idField: 'key' })).toEqual([{ index: 0, id: 3, text: 'x' }]);
  });

  it('csv: a header row, the text and id columns by name, quoted fields with newlines, blank lines skipped', async () => {
    const path = file('a.csv', 'id,text,lang\n7,"hello, world",en\n\n8,"two\nlines",en\n');
    expect(await records(path, { format: 'csv' })).toEqual([
      { index: 0, id: '7', text: 'hello, world' },
      { index: 1, id: '8', text: 'two\nlines' },
    ]);
    expect(await records(file('b.csv', 'body\nx\n'), { format: 'csv', textField: 'body' })).toEqual([{ index: 0, id: 2, text: 'x' }]);
  });

  it.each([
    ['bad.jsonl', '"ok"\n{"text": 1}\n', 'jsonl', {}, /'INPUT' must be 'text' to be a string \(--text-field names another key\); received number at .*bad\.jsonl:2/],
    ['missing.jsonl', '{"body": "x"}\n', 'jsonl', {}, /must be 'text' to be a string .*received no 'text' \(keys: body\) at .*missing\.jsonl:1/],
    ['broken.jsonl', '"ok"\n{"text": \n', 'jsonl', {}, /must be one JSON value per line .*broken\.jsonl:2/],
    ['array.jsonl', '[1, 2]\n', 'jsonl', {}, /received an array at .*array\.jsonl:1/],
    ['badid.jsonl', '{"text": "x", "id": {"a": 1}}\n', 'jsonl', {}, /'id' to be a string or a finite number; received \{"a":1\} at .*badid\.jsonl:1/],
    ['nocol.csv', 'id,body\n1,x\n', 'csv', {}, /a header row with a 'text' column .*received columns "id", "body" at .*nocol\.csv:1/],
    ['ragged.csv', 'id,text\n1,x,extra\n', 'csv', {}, /must be 2 fields, as the header row has; received 3 at .*ragged\.csv:2/],
    ['quote.csv', 'id,text\n1,a"b\n', 'csv', {}, /must be RFC 4180 CSV; received a quote inside an unquoted field.* at .*quote\.csv:2/],
  ] as const)('%s is an InvalidArgumentError naming the file and line', async (name, content, format, options, message) => {
    const error = await records(file(name, content), { format, ...options }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
  });

  it('infers the format from the extension', () => {
    expect(['a.jsonl', 'a.NDJSON', 'a.csv', 'a.txt', 'a', 'a.tsv'].map(inputFormatOf)).toEqual(['jsonl', 'jsonl', 'csv', 'text', 'text', 'text']);
  });
});
