import type { Line } from './read-lines.js';

/** One CSV record: its fields, the line it starts on, and the bytes read so far. */
export interface CsvRow {
  readonly fields: readonly string[];
  readonly line: number;
  readonly bytesRead: number;
}

/**
 * CSV records (RFC 4180: comma-separated, fields in double quotes may hold commas, newlines and `""`
 * for a quote) from a stream of lines. A quote that opens inside an unquoted field, text after a
 * closing quote, or a file that ends inside a quoted field is a `SyntaxError` naming the line.
 *
 * @example
 * for await (const row of parseCsv(readLines('corpus.csv'))) console.log(row.fields);
 */
export async function* parseCsv(lines: AsyncIterable<Line>): AsyncGenerator<CsvRow> {
  let fields: string[] = [];
  let field = '';
  let quoted = false; // inside a quoted field that continues on the next line
  let startLine = 0;
  for await (const { number, text, bytesRead } of lines) {
    if (!quoted) {
      startLine = number;
      fields = [];
      field = '';
    } else field += '\n';
    let i = 0;
    let afterQuote = false;
    while (i <= text.length) {
      if (quoted) {
        const close = text.indexOf('"', i);
        if (close === -1) {
          field += text.slice(i);
          i = text.length + 1;
          break;
        }
        field += text.slice(i, close);
        if (text[close + 1] === '"') {
          field += '"';
          i = close + 2;
        } else {
          quoted = false;
          afterQuote = true;
          i = close + 1;
        }
        continue;
      }
      const c = text[i];
      if (c === undefined || c === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
        i++;
        continue;
      }
      if (afterQuote) throw new SyntaxError(`line ${number}: text after a closing quote (a field is either quoted whole or not at all)`);
      if (c === '"') {
        if (field !== '') throw new SyntaxError(`line ${number}: a quote inside an unquoted field (quote the whole field and double the quote: "a ""b"" c")`);
        quoted = true;
        i++;
        continue;
      }
      const next = text.slice(i).search(/[,"]/);
      field += next === -1 ? text.slice(i) : text.slice(i, i + next);
      i = next === -1 ? text.length : i + next;
    }
    if (!quoted) yield { fields, line: startLine, bytesRead };
  }
  if (quoted) throw new SyntaxError(`line ${startLine}: the file ends inside a quoted field (a closing quote is missing)`);
}
