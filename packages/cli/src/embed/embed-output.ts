import { closeSync, existsSync, ftruncateSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { InvalidArgumentError } from '@attnkit/errors';
import { completeLines } from './complete-lines.js';
import { shortestFloat32 } from '../shortest-float32.js';
import { NPY_HEADER_BYTES, npyHeader, readNpyHeader } from './npy-header.js';

/** How vectors are written: a `.npy` matrix with a JSONL file of ids beside it, or JSONL lines `{ id, embedding }`. */
export const OUTPUT_FORMATS = ['npy', 'jsonl'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What identifies a run: a resumed output must have been started with the same settings. */
export interface EmbedSettings {
  readonly input: string;
  readonly model: string;
  readonly format: OutputFormat;
  readonly textField: string;
  readonly idField: string;
  readonly promptName: string | null;
  readonly normalize: boolean;
  readonly shard: string;
  readonly dim: number;
  /** Each row's text is kept beside its id (`{"id", "text"}` lines); absent (not false) otherwise, so outputs started before the option existed resume. */
  readonly keepText?: true;
}

/** The sidecar `<output>.embed.json`: the settings, and whether the run finished (with how many rows). */
interface Sidecar {
  readonly settings: EmbedSettings;
  readonly complete: boolean;
  readonly rows?: number;
}

/** The ids file beside a `.npy` output: `vectors.npy` → `vectors.ids.jsonl`. */
export function idsPathOf(path: string): string {
  return `${path.replace(/\.npy$/i, '')}.ids.jsonl`;
}

/** The files an output consists of. */
export function outputFiles(path: string, format: OutputFormat): string[] {
  return format === 'npy' ? [path, idsPathOf(path), `${path}.embed.json`] : [path, `${path}.embed.json`];
}

function refuse(path: string, expected: string, received: string, hint?: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit embed', argument: '--output', expected, received: `${received} (${path})`, ...(hint === undefined ? {} : { hint }) });
}

/**
 * An output of `attnkit embed` that survives interruption: rows are appended in input order (vectors
 * first, then their ids, so an interrupted write leaves at most a partial row, which is cut on resume).
 * Opening an output whose sidecar says the same settings resumes after the last complete row; a
 * finished one says so (`complete`); other existing files are refused unless `overwrite`.
 */
export class EmbedOutput {
  readonly path: string;
  readonly format: OutputFormat;
  readonly dim: number;
  /** Rows found from an earlier, interrupted run with the same settings (0 for a fresh output). */
  readonly resumedRows: number;
  /** Whether an earlier run with the same settings already finished this output. */
  readonly complete: boolean;
  #rows: number;
  #main = -1;
  #ids = -1;
  #mainBytes: number;
  #idsBytes = 0;
  readonly #settings: EmbedSettings;

  private constructor(path: string, settings: EmbedSettings, rows: number, complete: boolean) {
    this.path = path;
    this.format = settings.format;
    this.dim = settings.dim;
    this.#settings = settings;
    this.#rows = rows;
    this.resumedRows = rows;
    this.complete = complete;
    this.#mainBytes = 0;
  }

  /** Rows written so far (resumed ones included). */
  get rows(): number {
    return this.#rows;
  }

  /**
   * Opens `path` for `settings`: fresh, resumed, or already complete (then nothing is opened).
   *
   * @example
   * const out = EmbedOutput.open('vectors.npy', settings); // out.resumedRows rows already there
   */
  static open(path: string, settings: EmbedSettings, { overwrite = false } = {}): EmbedOutput {
    const files = outputFiles(path, settings.format);
    const sidecarPath = `${path}.embed.json`;
    for (const file of files) {
      if (existsSync(file) && !statSync(file).isFile()) refuse(file, 'a regular file path', 'a folder, device or pipe');
    }
    if (overwrite) for (const file of files) rmSync(file, { force: true });
    const sidecar = existsSync(sidecarPath) ? readSidecar(sidecarPath) : undefined;
    if (sidecar === undefined) {
      const existing = files.filter((f) => existsSync(f));
      if (existing.length > 0) refuse(existing[0]!, 'a path with no earlier output, or an output of attnkit embed to resume', 'an existing file that attnkit embed did not start (no sidecar .embed.json)', 'Choose another --output, or pass --overwrite to replace it.');
      const output = new EmbedOutput(path, settings, 0, false);
      output.#writeSidecar(false);
      output.#openFresh();
      return output;
    }
    const differences = ([...new Set([...Object.keys(settings), ...Object.keys(sidecar.settings)])] as (keyof EmbedSettings)[]).filter((k) => sidecar.settings[k] !== settings[k]);
    if (differences.length > 0) {
      refuse(sidecarPath, 'the settings the output was started with, to resume it', differences.map((k) => `${k}: ${JSON.stringify(sidecar.settings[k])} then, ${JSON.stringify(settings[k])} now`).join('; '), 'Run with the same settings to resume, choose another --output, or pass --overwrite to start again.');
    }
    if (sidecar.complete) return new EmbedOutput(path, settings, sidecar.rows ?? 0, true);
    const output = new EmbedOutput(path, settings, 0, false);
    output.#openResumed();
    return output;
  }

  #openFresh(): void {
    this.#main = openSync(this.path, 'w+');
    if (this.format === 'npy') {
      writeSync(this.#main, npyHeader(0, this.dim), 0, NPY_HEADER_BYTES, 0);
      this.#mainBytes = NPY_HEADER_BYTES;
      this.#ids = openSync(idsPathOf(this.path), 'w+');
    }
  }

  #openResumed(): void {
    if (this.format === 'jsonl') {
      const { lines, bytes } = existsSync(this.path) ? completeLines(this.path) : { lines: 0, bytes: 0 };
      this.#main = openSync(this.path, existsSync(this.path) ? 'r+' : 'w+');
      ftruncateSync(this.#main, bytes);
      this.#mainBytes = bytes;
      this.#rows = lines;
    } else {
      if (!existsSync(this.path)) return this.#openFresh();
      this.#main = openSync(this.path, 'r+');
      const head = Buffer.alloc(NPY_HEADER_BYTES);
      const read = readSync(this.#main, head, 0, NPY_HEADER_BYTES, 0);
      if (read < NPY_HEADER_BYTES || readNpyHeader(head)?.dataOffset !== NPY_HEADER_BYTES) { // the header was never written whole
        closeSync(this.#main);
        return this.#openFresh();
      }
      const rowBytes = 4 * this.dim;
      const vectorRows = Math.floor((fstatSync(this.#main).size - NPY_HEADER_BYTES) / rowBytes);
      const ids = existsSync(idsPathOf(this.path)) ? completeLines(idsPathOf(this.path)) : { lines: 0, bytes: 0 };
      this.#rows = Math.min(vectorRows, ids.lines);
      this.#mainBytes = NPY_HEADER_BYTES + this.#rows * rowBytes;
      ftruncateSync(this.#main, this.#mainBytes);
      this.#ids = openSync(idsPathOf(this.path), existsSync(idsPathOf(this.path)) ? 'r+' : 'w+');
      // the ids of rows whose vectors were cut (none: ids are written after vectors) and any partial line
      const keep = this.#rows === ids.lines ? ids.bytes : byteOfLine(idsPathOf(this.path), this.#rows);
      ftruncateSync(this.#ids, keep);
      this.#idsBytes = keep;
    }
    (this as { resumedRows: number }).resumedRows = this.#rows;
  }

  /**
   * Appends rows: `ids[i]` and the vector `vectors[i * dim, (i + 1) * dim)`, with `texts[i]` beside the id when given (`keepText`).
   *
   * @example
   * out.append([17, 18], new Float32Array(2 * out.dim));
   */
  append(ids: readonly (string | number)[], vectors: Float32Array, texts?: readonly string[]): void {
    if (vectors.length !== ids.length * this.dim) throw new RangeError(`EmbedOutput.append: ${ids.length} ids need ${ids.length * this.dim} values; received ${vectors.length}`);
    if (texts !== undefined && texts.length !== ids.length) throw new RangeError(`EmbedOutput.append: ${ids.length} ids need ${ids.length} texts; received ${texts.length}`);
    if (this.format === 'jsonl') {
      const lines = ids.map((id, i) => `${JSON.stringify({ id, ...(texts === undefined ? {} : { text: texts[i] }), embedding: Array.from(vectors.subarray(i * this.dim, (i + 1) * this.dim), shortestFloat32) })}\n`).join('');
      this.#mainBytes += writeSync(this.#main, lines, this.#mainBytes);
    } else {
      const bytes = new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength);
      for (let done = 0; done < bytes.length; ) done += writeSync(this.#main, bytes, done, bytes.length - done, this.#mainBytes + done);
      this.#mainBytes += bytes.length;
      const line = (id: string | number, i: number) => JSON.stringify(texts === undefined ? id : { id, text: texts[i] });
      this.#idsBytes += writeSync(this.#ids, ids.map((id, i) => `${line(id, i)}\n`).join(''), this.#idsBytes);
    }
    this.#rows += ids.length;
  }

  /** Writes the final row count into the header and marks the output complete in its sidecar. */
  finish(): void {
    if (this.format === 'npy') writeSync(this.#main, npyHeader(this.#rows, this.dim), 0, NPY_HEADER_BYTES, 0);
    this.close();
    this.#writeSidecar(true);
  }

  /** Closes the files (an unfinished output can be resumed later). */
  close(): void {
    for (const fd of [this.#main, this.#ids]) if (fd >= 0) closeSync(fd);
    this.#main = -1;
    this.#ids = -1;
  }

  #writeSidecar(complete: boolean): void {
    const path = `${this.path}.embed.json`;
    const sidecar: Sidecar = complete ? { settings: this.#settings, complete, rows: this.#rows } : { settings: this.#settings, complete };
    writeFileSync(`${path}.tmp`, `${JSON.stringify(sidecar, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
  }
}

function readSidecar(path: string): Sidecar {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Sidecar;
    if (typeof parsed.settings !== 'object' || parsed.settings === null || typeof parsed.complete !== 'boolean') throw new Error('not a sidecar');
    return parsed;
  } catch (error) {
    return refuse(path, 'the JSON sidecar attnkit embed writes', (error as Error).message, 'Pass --overwrite to start again.');
  }
}

/** The byte offset where line `n` (0-based) starts. */
function byteOfLine(path: string, n: number): number {
  const text = readFileSync(path);
  let at = 0;
  for (let line = 0; line < n; line++) at = text.indexOf(10, at) + 1;
  return at;
}
