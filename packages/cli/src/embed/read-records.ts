import { extname } from 'node:path';
import { InvalidArgumentError } from '@attnkit/errors';
import { parseCsv } from './parse-csv.js';
import { readLines } from './read-lines.js';

/** The input layouts `attnkit embed` reads. */
export const INPUT_FORMATS = ['text', 'jsonl', 'csv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** One text to embed: its position among the records (0-based), its id, its text, and the input bytes read so far. */
export interface TextRecord {
  readonly index: number;
  readonly id: string | number;
  readonly text: string;
  readonly bytesRead: number;
}

export interface ReadRecordsOptions {
  readonly format: InputFormat;
  /** The JSONL key or CSV column holding the text (default `'text'`). */
  readonly textField?: string;
  /** The JSONL key or CSV column holding the id (default `'id'`; without it: the line number). */
  readonly idField?: string;
}

/** The input format a file name implies: `.jsonl`/`.ndjson` → jsonl, `.csv` → csv, anything else → text (one text per line). */
export function inputFormatOf(path: string): InputFormat {
  const extension = extname(path).toLowerCase();
  return extension === '.jsonl' || extension === '.ndjson' ? 'jsonl' : extension === '.csv' ? 'csv' : 'text';
}

function bad(path: string, where: string, expected: string, received: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit embed', argument: 'INPUT', expected, received: `${received} at ${path}:${where}` });
}

function idOf(value: unknown, path: string, line: number, idField: string): string | number {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
  return bad(path, `${line}`, `'${idField}' to be a string or a finite number`, JSON.stringify(value)?.slice(0, 60) ?? String(value));
}

/**
 * The records of a corpus file, streamed in bounded memory and in file order:
 * - `text`: every line is a text (blank lines included, so row i is line i + 1); id = line number;
 * - `jsonl`: each non-blank line is a JSON string, or an object with `textField` (and `idField`);
 * - `csv`: a header row, then rows with a `textField` column (and `idField`); blank lines are skipped.
 * A malformed line, a missing field or a non-string text is an `InvalidArgumentError` naming the file and line.
 *
 * @example
 * for await (const r of readRecords('corpus.jsonl', { format: 'jsonl' })) console.log(r.id, r.text);
 */
export async function* readRecords(path: string, options: ReadRecordsOptions): AsyncGenerator<TextRecord> {
  const textField = options.textField ?? 'text';
  const idField = options.idField ?? 'id';
  let index = 0;
  if (options.format === 'text') {
    for await (const { number, text, bytesRead } of readLines(path)) yield { index: index++, id: number, text, bytesRead };
    return;
  }
  if (options.format === 'jsonl') {
    for await (const { number, text, bytesRead } of readLines(path)) {
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        bad(path, `${number}`, 'one JSON value per line (a string, or an object with the text)', `${(error as Error).message}`);
      }
      if (typeof value === 'string') {
        yield { index: index++, id: number, text: value, bytesRead };
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) bad(path, `${number}`, `a JSON string or an object with '${textField}'`, Array.isArray(value) ? 'an array' : String(value));
      const object = value as Record<string, unknown>;
      const found = object[textField];
      if (typeof found !== 'string') bad(path, `${number}`, `'${textField}' to be a string (--text-field names another key)`, found === undefined ? `no '${textField}' (keys: ${Object.keys(object).slice(0, 10).join(', ') || 'none'})` : typeof found);
      yield { index: index++, id: Object.hasOwn(object, idField) ? idOf(object[idField], path, number, idField) : number, text: found, bytesRead };
    }
    return;
  }
  let header: readonly string[] | undefined;
  let textColumn = -1;
  let idColumn = -1;
  try {
    for await (const { fields, line, bytesRead } of parseCsv(readLines(path))) {
      if (fields.length === 1 && fields[0] === '') continue; // a blank line
      if (header === undefined) {
        header = fields;
        textColumn = header.indexOf(textField);
        idColumn = header.indexOf(idField);
        if (textColumn === -1) bad(path, `${line}`, `a header row with a '${textField}' column (--text-field names another)`, `columns ${header.slice(0, 10).map((h) => JSON.stringify(h)).join(', ')}`);
        continue;
      }
      if (fields.length !== header.length) bad(path, `${line}`, `${header.length} fields, as the header row has`, `${fields.length}`);
      yield { index: index++, id: idColumn === -1 ? line : (fields[idColumn] as string), text: fields[textColumn] as string, bytesRead };
    }
  } catch (error) {
    if (error instanceof SyntaxError) bad(path, error.message.split(':')[0]!.replace('line ', ''), 'RFC 4180 CSV', error.message.split(': ').slice(1).join(': '));
    throw error;
  }
}
