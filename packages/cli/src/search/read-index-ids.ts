import { open, type FileHandle } from 'node:fs/promises';
import { InvalidArgumentError } from '@attnkit/errors';

const READ_BYTES = 1 << 20;

/** What the ids file says about one row: its id, and its text when the file keeps texts. */
export interface IndexEntry {
  readonly id: string | number;
  readonly text?: string;
}

/**
 * The entries of the given rows of an ids file beside a `.npy` index (`vectors.ids.jsonl`, one JSON
 * line per row, as `attnkit embed` writes it): each line an id (a string or a number) or an object
 * `{ "id": ..., "text": ... }` (what `attnkit embed --keep-text` writes). The file is streamed up
 * to the last row asked for, so only those rows are kept. A line that is not one of these, or a
 * file with fewer lines than a row asked for, is a typed error naming the file and line.
 *
 * @example
 * const entries = await readIndexIds('vectors.ids.jsonl', new Set([17, 3])); // Map { 3 => { id: 'doc-3' }, 17 => { id: 'doc-17', text: '...' } }
 */
export async function readIndexIds(path: string, rows: ReadonlySet<number>, { caller = 'readIndexIds', argument = 'ids' }: { readonly caller?: string; readonly argument?: string } = {}): Promise<Map<number, IndexEntry>> {
  const found = new Map<number, IndexEntry>();
  let last = -1;
  for (const row of rows) last = Math.max(last, row);
  if (last < 0) return found;
  const fail = (expected: string, received: string): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received });
  };
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
  } catch (error) {
    fail(`the ids file beside the index (${path})`, (error as { code?: string }).code ?? (error as Error).message);
  }
  // the file in large reads; only the lines of the rows asked for are decoded (a 1M-row file is scanned in tens of ms)
  const buffer = Buffer.alloc(READ_BYTES);
  let carry: Buffer[] = []; // the start of a line a read cut, when its row is wanted
  let row = 0;
  try {
    for (let position = 0; row <= last; ) {
      const { bytesRead } = await file!.read(buffer, 0, READ_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let start = 0;
      while (row <= last) {
        const end = buffer.indexOf(10, start);
        if (end < 0 || end >= bytesRead) {
          if (rows.has(row)) carry.push(Buffer.from(buffer.subarray(start, bytesRead)));
          break;
        }
        if (rows.has(row)) found.set(row, parseEntry(Buffer.concat([...carry, buffer.subarray(start, end)]).toString('utf8'), row, path, fail));
        carry = [];
        row++;
        start = end + 1;
      }
    }
    if (row === last && rows.has(row) && carry.length > 0) found.set(row, parseEntry(Buffer.concat(carry).toString('utf8'), row, path, fail)); // a last line without its newline
  } finally {
    await file!.close();
  }
  if (found.size < rows.size) fail(`an ids file with a line for each row of the index (row ${last} at least)`, `${path} with ${row} lines`);
  return found;
}

function parseEntry(line: string, row: number, path: string, fail: (expected: string, received: string) => never): IndexEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return fail('one JSON id or { "id", "text" } per line', `${path} line ${row + 1}: ${JSON.stringify(line.slice(0, 60))}`);
  }
  if (typeof value === 'string' || typeof value === 'number') return { id: value };
  const entry = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown; text?: unknown }) : undefined;
  if (entry !== undefined && (typeof entry.id === 'string' || typeof entry.id === 'number') && (entry.text === undefined || typeof entry.text === 'string')) return { id: entry.id, ...(entry.text === undefined ? {} : { text: entry.text }) };
  return fail('one JSON id or { "id", "text" } per line', `${path} line ${row + 1}: ${line.slice(0, 60)}`);
}
