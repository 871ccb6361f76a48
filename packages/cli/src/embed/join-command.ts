import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InvalidArgumentError } from '@attnkit/errors';
import { callerPath } from '../caller-path.js';
import { defineCommand } from '../command-line/cli-command.js';
import { OPTIONS } from '../command-line/option-table.js';
import { parseCommandLine } from '../command-line/parse-command-line.js';
import { idsPathOf } from './embed-output.js';
import { NPY_HEADER_BYTES, npyHeader, readNpyHeader } from './npy-header.js';
import { readLines } from './read-lines.js';

/** `attnkit join`. */
export const JOIN_COMMAND = defineCommand({
  name: 'join',
  purpose: 'joins the shard outputs of attnkit embed --shard I/N into one, in input order',
  usage: 'attnkit join OUT.npy|OUT.jsonl [--json]',
  summary: 'Joins the shard outputs of attnkit embed --shard I/N (OUT-00000-of-0000N.npy ... beside OUT) into OUT in input order: record r came from shard r mod N. Every shard must be complete and made with the same settings. Written to a temporary file, then renamed.',
  positionals: true,
  options: { json: OPTIONS.json('a summary', 'a one-line summary on stderr') },
  examples: ['attnkit join vectors.npy      # vectors-00000-of-00004.npy ... -> vectors.npy + vectors.ids.jsonl', 'attnkit join vectors.jsonl'],
  notes: ['Exit codes: 0 done; 2 a missing, unfinished or mismatched shard (the message names it); 1 a bug (please report it).'],
});

/** A missing, unfinished or mismatched shard: what to do about it is in `hint`, not the usage. */
function refuse(argument: string, expected: string, received: string, hint?: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit join', argument, expected, received, ...(hint === undefined ? {} : { hint }) });
}

/**
 * Parses `attnkit join` arguments.
 *
 * @example
 * parseJoinArgs(['vectors.npy', '--json']); // { output: '/where/it/runs/vectors.npy', json: true }
 */
export function parseJoinArgs(argv: readonly string[]): { output: string; json: boolean } {
  const { values, positionals, refuse: usage } = parseCommandLine(JOIN_COMMAND, argv);
  if (positionals.length !== 1) usage('OUT', 'one output path, the --output the shards were run with', `${positionals.length} paths`);
  const output = callerPath(positionals[0]!);
  if (!/\.(npy|jsonl|ndjson)$/i.test(output)) usage('OUT', 'a path ending in .npy or .jsonl', JSON.stringify(output));
  return { output, ...values };
}

interface ShardFile {
  readonly path: string;
  readonly rows: number;
  readonly settings: Record<string, unknown>;
}

/** The shard files of `output`, checked: all N present, complete, with the same settings. */
function shardsOf(output: string): ShardFile[] {
  const dot = output.lastIndexOf('.');
  const stem = basename(output.slice(0, dot));
  const extension = output.slice(dot);
  const folder = dirname(output);
  const pattern = new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d{5})-of-(\\d{5})${extension.replace('.', '\\.')}$`);
  const found = existsSync(folder) ? readdirSync(folder).map((f) => pattern.exec(f)).filter((m) => m !== null) : [];
  if (found.length === 0) refuse('OUT', `shard files ${stem}-00000-of-0000N${extension} ... beside it`, `none in ${folder}`);
  const counts = new Set(found.map((m) => Number(m[2])));
  if (counts.size !== 1) refuse('OUT', 'shards of one split (one N)', `splits into ${[...counts].join(' and ')}`);
  const n = [...counts][0]!;
  const shards: ShardFile[] = [];
  for (let k = 0; k < n; k++) {
    const path = join(folder, `${stem}-${String(k).padStart(5, '0')}-of-${String(n).padStart(5, '0')}${extension}`);
    if (!existsSync(path)) refuse('OUT', `all ${n} shards`, `${path} is missing`, `Run attnkit embed --shard ${k}/${n} first.`);
    const sidecar = existsSync(`${path}.embed.json`) ? (JSON.parse(readFileSync(`${path}.embed.json`, 'utf8')) as { complete: boolean; rows: number; settings: Record<string, unknown> }) : undefined;
    if (sidecar?.complete !== true) refuse('OUT', 'complete shards', `${path} is unfinished`, `Run attnkit embed --shard ${k}/${n} again to finish it.`);
    shards.push({ path, rows: sidecar.rows, settings: sidecar.settings });
  }
  const { shard: _, ...first } = shards[0]!.settings;
  for (const s of shards.slice(1)) {
    const { shard: __, ...other } = s.settings;
    const differing = Object.keys(first).filter((k) => first[k] !== other[k]);
    if (differing.length > 0) refuse('OUT', 'shards made with the same settings', `${s.path} differs in ${differing.join(', ')}`);
  }
  for (let k = 1; k < n; k++) {
    if (shards[k]!.rows > shards[0]!.rows || shards[k]!.rows < shards[0]!.rows - 1) refuse('OUT', `shards of one corpus (shard k holds the records k, k+N, ...: row counts differ by at most 1)`, `${shards.map((s) => s.rows).join(', ')} rows`);
  }
  return shards;
}

/**
 * Joins the shard outputs of `output` into `output` in input order.
 *
 * @example
 * await runJoin({ output: 'vectors.npy' }); // { rows: 10000, shards: 4, ... }
 */
export async function runJoin(request: { output: string }): Promise<{ output: string; ids: string | undefined; rows: number; shards: number }> {
  const shards = shardsOf(request.output);
  const rows = shards.reduce((sum, s) => sum + s.rows, 0);
  const npy = /\.npy$/i.test(request.output);
  const temporary = `${request.output}.${process.pid}.tmp`;
  const temporaryIds = `${idsPathOf(request.output)}.${process.pid}.tmp`;
  try {
    if (npy) {
      const dim = Number(shards[0]!.settings.dim);
      const rowBytes = 4 * dim;
      const target = openSync(temporary, 'w');
      const sources = shards.map((s) => {
        const fd = openSync(s.path, 'r');
        const head = Buffer.alloc(NPY_HEADER_BYTES);
        readSync(fd, head, 0, NPY_HEADER_BYTES, 0);
        const header = readNpyHeader(head);
        if (header?.shape[0] !== s.rows || header.shape[1] !== dim) refuse('OUT', `a .npy of [${s.rows}, ${dim}] as its sidecar says`, `${s.path}: ${JSON.stringify(header?.shape)}`);
        return fd;
      });
      writeSync(target, npyHeader(rows, dim));
      const row = Buffer.alloc(rowBytes);
      let at = NPY_HEADER_BYTES;
      for (let r = 0; r < rows; r++) {
        const k = r % shards.length;
        readSync(sources[k]!, row, 0, rowBytes, NPY_HEADER_BYTES + Math.floor(r / shards.length) * rowBytes);
        at += writeSync(target, row, 0, rowBytes, at);
      }
      for (const fd of [...sources, target]) closeSync(fd);
    }
    // the ids (npy) or the lines (jsonl), interleaved the same way
    const lineTarget = openSync(npy ? temporaryIds : temporary, 'w');
    const readers = shards.map((s) => readLines(npy ? idsPathOf(s.path) : s.path)[Symbol.asyncIterator]());
    for (let r = 0; r < rows; r++) {
      const next = await readers[r % shards.length]!.next();
      if (next.done === true) refuse('OUT', 'as many lines as rows in every shard', `${npy ? idsPathOf(shards[r % shards.length]!.path) : shards[r % shards.length]!.path} ends early`);
      writeSync(lineTarget, `${next.value.text}\n`);
    }
    closeSync(lineTarget);
    renameSync(temporary, request.output);
    if (npy) renameSync(temporaryIds, idsPathOf(request.output));
    writeFileSync(`${request.output}.embed.json`, `${JSON.stringify({ settings: { ...shards[0]!.settings, shard: `joined ${shards.length}` }, complete: true, rows }, null, 2)}\n`);
  } finally {
    rmSync(temporary, { force: true });
    rmSync(temporaryIds, { force: true });
  }
  return { output: request.output, ids: npy ? idsPathOf(request.output) : undefined, rows, shards: shards.length };
}
