import { closeSync, openSync, readSync } from 'node:fs';

/**
 * How many complete (newline-terminated) lines a file holds, and the byte length they span: what
 * survives of an append-only line file after an interruption (a partial last line is not counted).
 *
 * @example
 * completeLines('vectors.ids.jsonl'); // { lines: 4096, bytes: 28672 }
 */
export function completeLines(path: string): { lines: number; bytes: number } {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(4 << 20);
    let lines = 0;
    let bytes = 0;
    let position = 0;
    for (let read = readSync(fd, chunk, 0, chunk.length, 0); read > 0; read = readSync(fd, chunk, 0, chunk.length, position)) {
      for (let i = chunk.indexOf(10); i !== -1 && i < read; i = chunk.indexOf(10, i + 1)) {
        lines++;
        bytes = position + i + 1;
      }
      position += read;
    }
    return { lines, bytes };
  } finally {
    closeSync(fd);
  }
}
