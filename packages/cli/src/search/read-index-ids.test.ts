import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIndexIds } from './read-index-ids.js';

const dir = mkdtempSync(join(tmpdir(), 'attnkit-ids-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('readIndexIds', () => {
  it('reads the rows asked for: ids, or ids with their texts', async () => {
    const path = file('a.ids.jsonl', '"doc-0"\n7\n{"id":"doc-2","text":"Cats sleep."}\n{"id":3}\n"never read"\n');
    const entries = await readIndexIds(path, new Set([3, 0, 2, 1]));
    expect([...entries].sort(([a], [b]) => a - b)).toEqual([[0, { id: 'doc-0' }], [1, { id: 7 }], [2, { id: 'doc-2', text: 'Cats sleep.' }], [3, { id: 3 }]]);
    expect(await readIndexIds(path, new Set())).toEqual(new Map());
  });

  it('reads lines longer than one read, and a last line without its newline', async () => {
    const long = 'x'.repeat(2_500_000);
    const path = file('long.ids.jsonl', `"a"\n${JSON.stringify({ id: 'b', text: long })}\n"c"\n{"id":"d","text":"end"}`);
    const entries = await readIndexIds(path, new Set([1, 3]));
    expect([entries.get(1)?.text?.length, entries.get(3)]).toEqual([long.length, { id: 'd', text: 'end' }]);
  });

  it('refuses a malformed line and a file shorter than the index, naming the file and line', async () => {
    await expect(readIndexIds(file('b.ids.jsonl', '"a"\n[1, 2]\n'), new Set([1]))).rejects.toThrow(/^readIndexIds: 'ids' must be one JSON id or \{ "id", "text" \} per line; received .*b\.ids\.jsonl line 2: \[1, 2\]\.$/);
    await expect(readIndexIds(file('c.ids.jsonl', '"a"\n{"id": "b", "text": 5}\n'), new Set([1]))).rejects.toThrow(/c\.ids\.jsonl line 2/);
    await expect(readIndexIds(file('d.ids.jsonl', '"a"\nnot json\n'), new Set([1]))).rejects.toThrow(/d\.ids\.jsonl line 2: "not json"/);
    await expect(readIndexIds(file('e.ids.jsonl', '"a"\n"b"\n'), new Set([4]))).rejects.toThrow(/must be an ids file with a line for each row of the index \(row 4 at least\); received .*e\.ids\.jsonl with 2 lines\./);
    await expect(readIndexIds(join(dir, 'missing.ids.jsonl'), new Set([0]))).rejects.toThrow(/must be the ids file beside the index \(.*missing\.ids\.jsonl\); received ENOENT\./);
  });
});
