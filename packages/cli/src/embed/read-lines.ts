import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** One line of a text file: its 1-based number, its text (without `\n` or `\r\n`), and the bytes read so far. */
export interface Line {
  readonly number: number;
  readonly text: string;
  readonly bytesRead: number;
}

/**
 * The lines of a UTF-8 file, streamed in bounded memory (one 1 MiB chunk and one line at a time).
 * A final line without a newline is a line; a file ending in a newline has no empty last line.
 * A byte-order mark at the start is dropped. A line longer than `maxLineBytes` is an error (a binary
 * file read by mistake would otherwise fill memory).
 *
 * @example
 * for await (const line of readLines('texts.txt')) console.log(line.number, line.text);
 */
export async function* readLines(path: string, maxLineBytes = 64 * 1024 * 1024): AsyncGenerator<Line> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let number = 0;
  let bytesRead = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    bytesRead += chunk.length;
    pending += decoder.write(chunk);
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      const text = pending.slice(start, end > start && pending[end - 1] === '\r' ? end - 1 : end);
      start = end + 1;
      number++;
      yield { number, text: number === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text, bytesRead };
    }
    pending = pending.slice(start);
    if (pending.length > maxLineBytes) throw new RangeError(`line ${number + 1} is longer than ${maxLineBytes} bytes: is this a text file?`);
  }
  pending += decoder.end();
  if (pending !== '') {
    number++;
    const text = pending.endsWith('\r') ? pending.slice(0, -1) : pending;
    yield { number, text: number === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text, bytesRead };
  }
}
