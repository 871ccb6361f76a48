import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from '@attnkit/errors';
import { callerPath } from '../caller-path.js';
import { checkModelFolder } from '../check-model-folder.js';
import { defineCommand } from '../command-line/cli-command.js';
import { switchOption, valueOption, wholeNumberOption } from '../command-line/option-kinds.js';
import { OPTIONS } from '../command-line/option-table.js';
import { parseCommandLine } from '../command-line/parse-command-line.js';
import { refuseArgument } from '../command-line/refuse-argument.js';
import type { ProgressState } from '../progress-bar.js';
import { EmbedOutput, idsPathOf, type OutputFormat } from './embed-output.js';
import { INPUT_FORMATS, inputFormatOf, readRecords, type InputFormat, type TextRecord } from './read-records.js';
import { embedPlan, IN_PROCESS_MAX_TEXTS } from './embed-plan.js';
import { startEmbedder, type Embedder } from './embedder.js';
import { readAhead } from './read-ahead.js';
import { parseShard, shardFromEnvironment, shardPath, type Shard } from './shard.js';
import { WorkerPool } from './worker-pool.js';

/** What `attnkit embed` was asked to do. */
export interface EmbedRequest {
  readonly input: string;
  readonly inputFormat: InputFormat;
  /** The output as given; with several shards each writes `shardPath(output, shard)`. */
  readonly output: string;
  readonly outputFormat: OutputFormat;
  readonly model: string;
  readonly backend: 'cpu' | 'wasm';
  readonly textField: string;
  readonly idField: string;
  readonly batchSize: number;
  /** Worker threads as `--workers` gave them; `undefined`: chosen by the input's size (`embedPlan`). */
  readonly workers: number | undefined;
  /** wasm threads in each worker as `--threads` gave them; `undefined`: the cores shared out. */
  readonly threads: number | undefined;
  readonly shard: Shard;
  readonly promptName: string | undefined;
  readonly normalize: boolean;
  /** Keep each text beside its id in the output (for `attnkit search` to print and rerank). */
  readonly keepText: boolean;
  readonly overwrite: boolean;
  readonly json: boolean;
}

/** What a run did (`--json` prints it). */
export interface EmbedSummary {
  readonly output: string;
  /** The ids file beside a `.npy` output. */
  readonly ids: string | undefined;
  readonly rows: number;
  /** Rows an earlier, interrupted run had written (not recomputed). */
  readonly resumedRows: number;
  readonly dim: number;
  readonly shard: string;
  /** Worker threads used; 0: the main thread embedded (a small input without `--workers`). */
  readonly workers: number;
  /** wasm threads of each worker (or of the main thread). */
  readonly threads: number;
  readonly seconds: number;
  /** Rows embedded by this run per second of its wall time (model loading included). */
  readonly textsPerSecond: number;
  /** `'complete'`, `'already complete'` (nothing to do), or `'interrupted'` (run it again to resume). */
  readonly status: 'complete' | 'already complete' | 'interrupted';
}

/** `attnkit embed`. */
export const EMBED_COMMAND = defineCommand({
  name: 'embed',
  purpose: 'a corpus file of any size to .npy + ids or JSONL, in input order: worker threads on every core (small inputs in the main thread), resumable, sharded',
  usage: 'attnkit embed INPUT --output OUT.npy|OUT.jsonl [--model DIR|ID] [--backend cpu|wasm] [--workers N] [--shard I/N] [options]',
  summary: `Embeds a corpus file of any size with a sentence-embedding model: streams INPUT (text: one text per line; .jsonl: one JSON string or object per line; .csv: a header row and a text column), uses worker threads on every core (an input of up to ${IN_PROCESS_MAX_TEXTS} texts is embedded in the main thread, where starting workers would cost more than they save), and writes the vectors in input order to OUT.npy (float32 [rows, dim]) with OUT.ids.jsonl beside it, or to OUT.jsonl ({"id", "embedding"} per line). An interrupted run (Ctrl-C, a killed job) resumes where it stopped when run again with the same arguments: no row is lost or computed twice. --shard I/N embeds every N-th record from the I-th (0-based), so N machines split a corpus with no coordinator; in a Kubernetes Indexed Job the shard comes from JOB_COMPLETION_INDEX and JOB_COMPLETIONS. Join shard outputs with attnkit join.`,
  positionals: true,
  options: {
    output: valueOption({ name: 'output', placeholder: 'OUT.npy|OUT.jsonl', help: 'OUT.npy (+ OUT.ids.jsonl) or OUT.jsonl; with shards, OUT-00002-of-00008.npy and so on; OUT.embed.json records the settings', parse: (value) => value }),
    model: OPTIONS.model,
    backend: { ...OPTIONS.backend, help: 'the tfjs backend of every worker' },
    inputFormat: valueOption({
      name: 'input-format',
      placeholder: 'text|jsonl|csv',
      help: 'how INPUT is laid out',
      default: 'from its extension (.jsonl, .ndjson, .csv; anything else: text)',
      parse: (value, refuse) => (value === undefined || (INPUT_FORMATS as readonly string[]).includes(value) ? (value as InputFormat | undefined) : refuse(INPUT_FORMATS.join(', '), JSON.stringify(value))),
    }),
    textField: valueOption({ name: 'text-field', placeholder: 'NAME', help: 'the JSONL key or CSV column with the text', default: 'text', parse: (value = 'text', refuse) => (value === '' ? refuse('a key or column name', '""') : value) }),
    idField: valueOption({ name: 'id-field', placeholder: 'NAME', help: 'the JSONL key or CSV column with the id', default: 'id, else the line number', parse: (value = 'id', refuse) => (value === '' ? refuse('a key or column name', '""') : value) }),
    batchSize: wholeNumberOption({ name: 'batch-size', help: 'texts per forward pass (texts are sorted by length first)', min: 1, max: 4096, fallback: 32 }),
    workers: wholeNumberOption({ name: 'workers', help: 'worker threads, each with its own copy of the model', default: `the number of cores; none (the main thread embeds) for up to ${IN_PROCESS_MAX_TEXTS} texts`, min: 1, max: 64 }),
    threads: wholeNumberOption({ name: 'threads', help: 'wasm threads per worker', default: 'cores / workers (every core in the main thread), at least 1', min: 1, max: 8 }),
    shard: valueOption({ name: 'shard', placeholder: 'I/N', help: 'embed records I, I+N, I+2N, ... (0-based)', default: 'JOB_COMPLETION_INDEX/JOB_COMPLETIONS if set, else all', parse: (value) => (value === undefined ? undefined : parseShard(value)) }),
    promptName: OPTIONS.promptName,
    normalize: { ...OPTIONS.normalize, help: 'scale the vectors to unit length' },
    keepText: switchOption({ name: 'keep-text', help: 'keep each text beside its id: OUT.ids.jsonl lines {"id", "text"} (what attnkit search prints and --rerank reads), or a "text" in each OUT.jsonl line', default: 'ids only' }),
    overwrite: { ...OPTIONS.overwrite, help: 'replace an existing output instead of resuming it', default: 'resume' },
    json: OPTIONS.json('a summary', 'a one-line summary on stderr'),
  },
  examples: [
    'attnkit embed corpus.txt --output vectors.npy',
    'attnkit embed docs.jsonl --model ./all-MiniLM-L6-v2 --text-field body --id-field doc_id --normalize --output vectors.npy',
    'attnkit embed reviews.csv --output vectors.jsonl --workers 2 --shard 0/4',
  ],
  notes: [
    'Exit codes: 0 done (also when the output was already complete); 2 a usage or input error (bad option, unreadable INPUT, an INPUT with no text, a malformed line: the message names the file and line, an output started with other settings); 130 interrupted (run the same command again to resume); 1 a bug (please report it).',
  ],
});

/**
 * Parses `attnkit embed` arguments. Relative paths are taken from the directory the command runs in.
 *
 * @example
 * parseEmbedArgs(['corpus.txt', '--output', 'vectors.npy', '--workers', '2']);
 */
export function parseEmbedArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): EmbedRequest {
  const { values, positionals, refuse } = parseCommandLine(EMBED_COMMAND, argv);
  if (positionals.length !== 1) refuse('INPUT', 'one input file', positionals.length === 0 ? 'none' : `${positionals.length}: ${positionals.slice(0, 3).map((p) => JSON.stringify(p)).join(', ')}`);
  if (values.output === undefined) return refuse('--output', 'OUT.npy or OUT.jsonl', 'none');
  const outputFormat = /\.npy$/i.test(values.output) ? 'npy' : /\.(jsonl|ndjson)$/i.test(values.output) ? 'jsonl' : refuse('--output', 'a path ending in .npy (vectors + OUT.ids.jsonl) or .jsonl (id and vector per line)', JSON.stringify(values.output));
  const input = callerPath(positionals[0]!);
  return {
    ...values,
    input,
    inputFormat: values.inputFormat ?? inputFormatOf(input),
    output: callerPath(values.output),
    outputFormat,
    shard: values.shard ?? shardFromEnvironment(env) ?? { index: 0, count: 1 },
  };
}

/**
 * Embeds the corpus as the request says, resuming an interrupted output. `signal` stops it cleanly
 * (the rows in flight are written; the output stays resumable; status `'interrupted'`). Without
 * `--workers`, a small input is embedded in this thread and a large one by a worker per core
 * (`embedPlan`; `cores` defaults to the machine's).
 *
 * @example
 * const summary = await runEmbed(parseEmbedArgs(['corpus.txt', '--output', 'vectors.npy']));
 */
export async function runEmbed(request: EmbedRequest, options: { signal?: AbortSignal; onProgress?: (state: ProgressState) => void; cores?: number } = {}): Promise<EmbedSummary> {
  const started = performance.now();
  let size = 0;
  try {
    const stats = statSync(request.input);
    if (!stats.isFile()) refuseArgument(EMBED_COMMAND, 'INPUT', 'a regular file', `${request.input} (a folder, device or pipe)`);
    size = stats.size;
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    refuseArgument(EMBED_COMMAND, 'INPUT', 'a readable file', `${request.input} (${(error as { code?: string }).code ?? (error as Error).message})`);
  }
  checkModelFolder(EMBED_COMMAND, '--model', request.model);
  const mine = (record: TextRecord) => record.index % request.shard.count === request.shard.index;
  // enough of the input to tell an empty one, and a small one (embedded in this thread) from a large one
  const records = await readAhead(readRecords(request.input, { format: request.inputFormat, textField: request.textField, idField: request.idField }), IN_PROCESS_MAX_TEXTS, mine);
  if (records.ended && records.ahead.length === 0) {
    const blank = request.inputFormat === 'csv' ? 'no row after the header, or only blank lines' : 'only blank lines';
    refuseArgument(EMBED_COMMAND, 'INPUT', 'at least one text', `${request.input} has none (${size === 0 ? 'an empty file' : blank})`);
  }
  const path = shardPath(request.output, request.shard);
  const shardText = `${request.shard.index}/${request.shard.count}`;
  const plan = embedPlan(request, records.ended ? records.counted : Infinity, options.cores ?? availableParallelism());
  const settings = { model: request.model, backend: request.backend, threads: plan.threads, batchSize: request.batchSize, normalize: request.normalize, promptName: request.promptName ?? null };
  const pool: Embedder = await (plan.workers === 0 ? startEmbedder(settings) : WorkerPool.start(plan.workers, settings)).catch(async (error: unknown) => {
    await records.close();
    throw error;
  });
  let output: EmbedOutput | undefined;
  try {
    output = EmbedOutput.open(path, {
      input: request.input, model: request.model, format: request.outputFormat, textField: request.textField, idField: request.idField,
      promptName: request.promptName ?? null, normalize: request.normalize, shard: shardText, dim: pool.dim, ...(request.keepText ? { keepText: true as const } : {}),
    }, { overwrite: request.overwrite });
    const summary = (status: EmbedSummary['status']): EmbedSummary => {
      const seconds = (performance.now() - started) / 1000;
      const rows = output!.rows;
      return { output: path, ids: request.outputFormat === 'npy' ? idsPathOf(path) : undefined, rows, resumedRows: output!.resumedRows, dim: pool.dim, shard: shardText, workers: plan.workers, threads: plan.threads, seconds: Math.round(seconds * 100) / 100, textsPerSecond: Math.round(((rows - output!.resumedRows) / seconds) * 10) / 10, status };
    };
    if (output.complete) return summary('already complete');
    const chunkSize = request.batchSize * 4;
    const inFlight: { ids: (string | number)[]; texts: string[] | undefined; vectors: Promise<Float32Array> }[] = [];
    let bytesRead = 0;
    const write = async () => {
      const head = inFlight.shift()!;
      output!.append(head.ids, await head.vectors, head.texts);
      options.onProgress?.({ done: output!.rows - output!.resumedRows, fraction: size > 0 ? bytesRead / size : 1 });
    };
    const submit = (chunk: TextRecord[]) => {
      const vectors = pool.embed(chunk.map((r) => r.text));
      vectors.catch(() => undefined); // awaited in order by write(); this only keeps an early failure from being "unhandled"
      inFlight.push({ ids: chunk.map((r) => r.id), texts: request.keepText ? chunk.map((r) => r.text) : undefined, vectors });
    };
    let skip = output.resumedRows; // this shard's records already written
    let chunk: TextRecord[] = [];
    for await (const record of records.all) {
      bytesRead = record.bytesRead;
      if (!mine(record)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      chunk.push(record);
      if (chunk.length === chunkSize) {
        submit(chunk);
        chunk = [];
        while (inFlight.length >= 2 * Math.max(1, plan.workers)) await write();
      }
      if (options.signal?.aborted === true) break;
    }
    if (options.signal?.aborted === true) {
      while (inFlight.length > 0) await write();
      output.close();
      return summary('interrupted');
    }
    if (chunk.length > 0) submit(chunk);
    while (inFlight.length > 0) await write();
    output.finish();
    return summary('complete');
  } finally {
    output?.close();
    await records.close();
    await pool.stop();
  }
}

/** The one-line summary for stderr. */
export function formatEmbedSummary(s: EmbedSummary): string {
  const what = s.status === 'already complete' ? `already complete: ${s.rows} rows` : `${s.rows - s.resumedRows} rows${s.resumedRows > 0 ? ` (+${s.resumedRows} from the interrupted run)` : ''} of ${s.dim} dims in ${s.seconds} s, ${s.textsPerSecond} texts/s (${s.workers === 0 ? 'in the main thread' : `${s.workers} worker(s)`} × ${s.threads} thread(s), shard ${s.shard})`;
  const files = s.ids === undefined ? s.output : `${s.output} + ${s.ids}`;
  return `attnkit embed: ${what} -> ${files}${s.status === 'interrupted' ? '; interrupted: run the same command again to resume' : ''}`;
}
