import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { thrown } from '@attnkit/test-utils';
import { embeddedModelFolder } from '../embedded-model.js';
import { parseEmbedArgs, type EmbedSummary } from './embed-command.js';
import { readNpyHeader } from './npy-header.js';

/** The published bin (dist/cli.js), run with node in `cwd`. */
const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
function attnkit(args: string[], cwd: string, env: Record<string, string> = {}, onStart?: (child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    onStart?.(child);
  });
}
const WORDS = 'the cat sat on a mat while markets fell sharply and attention is all you need today in the park'.split(' ');
function corpus(n: number): string[] {
  let state = 7;
  const next = (k: number) => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 8) % k;
  return Array.from({ length: n }, (_, i) => `${i} ${Array.from({ length: 2 + next(24) }, () => WORDS[next(WORDS.length)]).join(' ')}`);
}
function npy(path: string): { shape: readonly number[]; values: Float32Array } {
  const bytes = readFileSync(path);
  const header = readNpyHeader(bytes)!;
  return { shape: header.shape, values: new Float32Array(bytes.buffer.slice(bytes.byteOffset + header.dataOffset, bytes.byteOffset + bytes.length)) };
}
const idsOf = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
const lineCount = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0);
/** Sends `signal` to the run once `path` has `lines` lines: it is under way, with rows written. */
const signalAfter = (path: string, lines: number, signal: NodeJS.Signals) => (child: ReturnType<typeof spawn>) => {
  const poll = setInterval(() => {
    if (lineCount(path) < lines) return;
    clearInterval(poll);
    child.kill(signal);
  }, 20);
};

const TEXTS = corpus(300);
let folder: string;
let reference: Float32Array; // SentenceEncoder.encode of TEXTS in this process, wasm: [300, 64]

describe('attnkit embed (the built bin, run from a temp directory)', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'attnkit-embed-'));
    writeFileSync(join(folder, 'corpus.txt'), `${TEXTS.join('\n')}\n`);
    writeFileSync(join(folder, 'corpus.jsonl'), `${TEXTS.map((t, i) => JSON.stringify({ doc: `d${i}`, body: t })).join('\n')}\n`);
    writeFileSync(join(folder, 'corpus.csv'), `key,text\n${TEXTS.map((t, i) => `k${i},"${t.replaceAll('"', '""')}"`).join('\n')}\n`);
    writeFileSync(join(folder, 'empty.txt'), '');
    writeFileSync(join(folder, 'blank.jsonl'), '\n  \n\n');
    writeFileSync(join(folder, 'header-only.csv'), 'id,text\n');
    await useBackend('wasm');
    const model = await loadSentenceEncoder(embeddedModelFolder());
    const embeddings = await model.encode(TEXTS);
    reference = (await embeddings.data()) as Float32Array;
    embeddings.dispose();
    model.dispose();
  }, 120_000);

  afterAll(() => undefined);

  it('text file -> .npy [rows, dim] + ids (line numbers), equal to SentenceEncoder.encode of the same texts; --json prints only the summary', async () => {
    const run = await attnkit(['embed', 'corpus.txt', '--output', 'one.npy', '--workers', '1', '--json'], folder);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as EmbedSummary;
    expect(summary).toMatchObject({ output: join(folder, 'one.npy'), ids: join(folder, 'one.ids.jsonl'), rows: 300, resumedRows: 0, dim: 64, shard: '0/1', workers: 1, status: 'complete' });
    expect(summary.textsPerSecond).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/^attnkit embed: 300 rows of 64 dims in [\d.]+ s, [\d.]+ texts\/s \(1 worker\(s\) × \d thread\(s\), shard 0\/1\) -> /m);
    const { shape, values } = npy(join(folder, 'one.npy'));
    expect(shape).toEqual([300, 64]);
    expect(maxDifference(values, reference).maxAbsDiff).toBeLessThan(1e-5);
    expect(idsOf(join(folder, 'one.ids.jsonl'))).toEqual(TEXTS.map((_, i) => i + 1));
  }, 120_000);

  it('without --workers, a small input is embedded in the main thread (no worker threads start), with the same rows', async () => {
    const run = await attnkit(['embed', 'corpus.txt', '--output', 'main-thread.npy', '--json'], folder);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ rows: 300, workers: 0, threads: availableParallelism(), status: 'complete' });
    expect(run.stderr).toMatch(/\(in the main thread × \d+ thread\(s\), shard 0\/1\)/);
    expect(maxDifference(npy(join(folder, 'main-thread.npy')).values, reference).maxAbsDiff).toBeLessThan(1e-5);
    expect(idsOf(join(folder, 'main-thread.ids.jsonl'))).toEqual(TEXTS.map((_, i) => i + 1));
  }, 120_000);

  it('two workers write the same rows in the same order as one', async () => {
    const run = await attnkit(['embed', 'corpus.txt', '--output', 'two.npy', '--workers', '2', '--batch-size', '8'], folder);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\(2 worker\(s\) × 1 thread\(s\)/);
    expect(maxDifference(npy(join(folder, 'two.npy')).values, reference).maxAbsDiff).toBeLessThan(1e-5);
    expect(idsOf(join(folder, 'two.ids.jsonl'))).toEqual(TEXTS.map((_, i) => i + 1));
  }, 120_000);

  it('JSONL and CSV inputs with named text and id fields; JSONL output of {"id", "embedding"}', async () => {
    const jsonl = await attnkit(['embed', 'corpus.jsonl', '--text-field', 'body', '--id-field', 'doc', '--output', 'from-jsonl.jsonl', '--workers', '1'], folder);
    expect(jsonl.code).toBe(0);
    const lines = readFileSync(join(folder, 'from-jsonl.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; embedding: number[] });
    expect(lines.map((l) => l.id)).toEqual(TEXTS.map((_, i) => `d${i}`));
    expect(maxDifference(Float32Array.from(lines.flatMap((l) => l.embedding)), reference).maxAbsDiff).toBeLessThan(1e-5);
    const csv = await attnkit(['embed', 'corpus.csv', '--id-field', 'key', '--output', 'from-csv.npy', '--workers', '1'], folder);
    expect(csv.code).toBe(0);
    expect(idsOf(join(folder, 'from-csv.ids.jsonl'))).toEqual(TEXTS.map((_, i) => `k${i}`));
    expect(maxDifference(npy(join(folder, 'from-csv.npy')).values, reference).maxAbsDiff).toBeLessThan(1e-5);
  }, 120_000);

  it('shards split the corpus with no coordinator (one from a Kubernetes Indexed Job environment); attnkit join puts the rows back in input order', async () => {
    const runs = await Promise.all([
      attnkit(['embed', 'corpus.txt', '--output', 'sharded.npy', '--shard', '0/3', '--workers', '1', '--threads', '1'], folder),
      attnkit(['embed', 'corpus.txt', '--output', 'sharded.npy', '--shard', '1/3', '--workers', '1', '--threads', '1'], folder),
      attnkit(['embed', 'corpus.txt', '--output', 'sharded.npy', '--workers', '1', '--threads', '1'], folder, { JOB_COMPLETION_INDEX: '2', JOB_COMPLETIONS: '3' }),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs[2]!.stderr).toMatch(/shard 2\/3\) -> .*sharded-00002-of-00003\.npy/);
    expect(npy(join(folder, 'sharded-00001-of-00003.npy')).shape).toEqual([100, 64]);
    expect(idsOf(join(folder, 'sharded-00001-of-00003.ids.jsonl'))).toEqual(TEXTS.map((_, i) => i + 1).filter((_, i) => i % 3 === 1));
    const join3 = await attnkit(['join', 'sharded.npy', '--json'], folder);
    expect(join3.code).toBe(0);
    expect(JSON.parse(join3.stdout)).toEqual({ output: join(folder, 'sharded.npy'), ids: join(folder, 'sharded.ids.jsonl'), rows: 300, shards: 3 });
    const joined = npy(join(folder, 'sharded.npy'));
    expect(joined.shape).toEqual([300, 64]);
    expect(maxDifference(joined.values, reference).maxAbsDiff).toBeLessThan(1e-5);
    expect(idsOf(join(folder, 'sharded.ids.jsonl'))).toEqual(TEXTS.map((_, i) => i + 1));
  }, 180_000);

  it('killed mid-run (SIGKILL), then run again: resumes after the last complete row; no row lost, none repeated', async () => {
    const texts = corpus(1200);
    writeFileSync(join(folder, 'long.txt'), `${texts.join('\n')}\n`);
    const ids = join(folder, 'killed.ids.jsonl');
    const killed = await attnkit(['embed', 'long.txt', '--output', 'killed.npy', '--workers', '1', '--batch-size', '4'], folder, {}, signalAfter(ids, 64, 'SIGKILL'));
    expect(killed.signal).toBe('SIGKILL');
    const before = lineCount(ids);
    expect(before).toBeGreaterThanOrEqual(64);
    expect(before).toBeLessThan(1200);
    const resumed = await attnkit(['embed', 'long.txt', '--output', 'killed.npy', '--workers', '1', '--batch-size', '4', '--json'], folder);
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.stdout) as EmbedSummary;
    expect(summary.resumedRows).toBeGreaterThanOrEqual(before - 16); // at most the last chunk in flight is redone
    expect(summary.rows).toBe(1200);
    expect(idsOf(ids)).toEqual(texts.map((_, i) => i + 1));
    const whole = await attnkit(['embed', 'long.txt', '--output', 'whole.npy', '--workers', '1', '--batch-size', '4'], folder);
    expect(whole.code).toBe(0);
    expect(maxDifference(npy(join(folder, 'killed.npy')).values, npy(join(folder, 'whole.npy')).values).maxAbsDiff).toBeLessThan(1e-6);
  }, 240_000);

  it('SIGINT (Ctrl-C) writes the rows in flight and exits 130 with a resumable output; a finished output is not redone; other settings are refused', async () => {
    const ids = join(folder, 'stopped.ids.jsonl');
    const stopped = await attnkit(['embed', 'long.txt', '--output', 'stopped.npy', '--workers', '1', '--batch-size', '4'], folder, {}, signalAfter(ids, 32, 'SIGINT'));
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/interrupted: run the same command again to resume/);
    const finished = await attnkit(['embed', 'long.txt', '--output', 'stopped.npy', '--workers', '1', '--batch-size', '4'], folder);
    expect(finished.code).toBe(0);
    expect(finished.stderr).toMatch(/\(\+\d+ from the interrupted run\)/);
    expect(idsOf(ids)).toHaveLength(1200);
    const again = await attnkit(['embed', 'long.txt', '--output', 'stopped.npy', '--workers', '1', '--batch-size', '4'], folder);
    expect([again.code, again.stderr]).toEqual([0, expect.stringMatching(/already complete: 1200 rows/)]);
    const other = await attnkit(['embed', 'long.txt', '--output', 'stopped.npy', '--workers', '1', '--normalize'], folder);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/normalize: false then, true now/);
  }, 240_000);

  it('SIGINT in the main thread (a small input without --workers) also writes the rows in flight, exits 130, and resumes', async () => {
    const ids = join(folder, 'main-stopped.ids.jsonl');
    const stopped = await attnkit(['embed', 'long.txt', '--output', 'main-stopped.npy', '--batch-size', '4'], folder, {}, signalAfter(ids, 32, 'SIGINT'));
    expect([stopped.code, stopped.stderr]).toEqual([130, expect.stringMatching(/in the main thread .*interrupted: run the same command again to resume/)]);
    expect(lineCount(ids)).toBeLessThan(1200);
    const finished = await attnkit(['embed', 'long.txt', '--output', 'main-stopped.npy', '--batch-size', '4'], folder);
    expect([finished.code, finished.stderr]).toEqual([0, expect.stringMatching(/\(\+\d+ from the interrupted run\)/)]);
    expect(maxDifference(npy(join(folder, 'main-stopped.npy')).values, npy(join(folder, 'whole.npy')).values).maxAbsDiff).toBeLessThan(1e-6);
    expect(idsOf(ids)).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1));
  }, 240_000);

  it.each([
    [['embed', 'missing.txt', '--output', 'x.npy'], /'INPUT' must be a readable file; received .*missing\.txt \(ENOENT\)/],
    [['embed', 'corpus.txt', '--output', 'x.parquet'], /'--output' must be a path ending in \.npy .* or \.jsonl/],
    [['embed', 'corpus.txt', '--output', 'x.npy', '--model', 'no-such-model', '--workers', '1'], /^attnkit embed: '--model' must be a model folder, a Hugging Face id \('org\/name'\) or an http\(s\) URL; received .*no-such-model, which does not exist\./],
    [['join', 'nothing.npy'], /'OUT' must be shard files nothing-00000-of-0000N\.npy/],
    [['embed', 'empty.txt', '--output', 'empty.npy'], /^attnkit embed: 'INPUT' must be at least one text; received .*empty\.txt has none \(an empty file\)\./],
    [['embed', 'blank.jsonl', '--output', 'blank.npy'], /^attnkit embed: 'INPUT' must be at least one text; received .*blank\.jsonl has none \(only blank lines\)\./],
    [['embed', 'header-only.csv', '--output', 'header-only.jsonl', '--shard', '1/2'], /^attnkit embed: 'INPUT' must be at least one text; received .*header-only\.csv has none \(no row after the header, or only blank lines\)\./],
  ])('%j exits 2 with a typed message', async (args, message) => {
    const run = await attnkit(args, folder);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
    if (args[0] === 'embed') expect(existsSync(join(folder, args[3]!))).toBe(false); // refused before any output is written
  }, 60_000);
});

describe('parseEmbedArgs', () => {
  it('defaults: wasm, the embedded model, batch 32, workers and threads chosen by the input (embedPlan), all records', () => {
    expect(parseEmbedArgs(['in.txt', '--output', 'o.npy'], {})).toMatchObject({ backend: 'wasm', model: embeddedModelFolder(), batchSize: 32, workers: undefined, threads: undefined, shard: { index: 0, count: 1 }, inputFormat: 'text', outputFormat: 'npy' });
    expect(parseEmbedArgs(['in.csv', '--output', 'o.jsonl', '--workers', '1', '--threads', '3'], {})).toMatchObject({ workers: 1, threads: 3, inputFormat: 'csv', outputFormat: 'jsonl' });
  });

  it('--shard wins over the Kubernetes environment', () => {
    expect(parseEmbedArgs(['in.txt', '--output', 'o.npy', '--shard', '1/2'], { JOB_COMPLETION_INDEX: '0', JOB_COMPLETIONS: '4' }).shard).toEqual({ index: 1, count: 2 });
    expect(parseEmbedArgs(['in.txt', '--output', 'o.npy'], { JOB_COMPLETION_INDEX: '3', JOB_COMPLETIONS: '4' }).shard).toEqual({ index: 3, count: 4 });
  });

  it.each([
    [[], /'INPUT' must be one input file; received none/],
    [['a.txt', 'b.txt', '--output', 'o.npy'], /'INPUT' must be one input file; received 2: "a\.txt", "b\.txt"/],
    [['a.txt'], /'--output' must be OUT\.npy or OUT\.jsonl; received none/],
    [['a.txt', '--output', 'o.npy', '--workers', '0'], /'--workers' must be a whole number from 1 to 64; received "0"/],
    [['a.txt', '--output', 'o.npy', '--batch-size', '1e3'], /'--batch-size' must be a whole number from 1 to 4096; received "1e3"/],
    [['a.txt', '--output', 'o.npy', '--backend', 'webgl'], /'--backend' must be cpu or wasm \(webgl needs a browser: use the web page\); received webgl\./],
    [['a.txt', '--output', 'o.npy', '--input-format', 'tsv'], /'--input-format' must be text, jsonl, csv; received "tsv"/],
    [['a.txt', '--output', 'o.npy', '--text-field', ''], /'--text-field' must be a key or column name; received ""/],
    [['a.txt', '--output', 'o.npy', '--bogus'], /'arguments' must be the options of attnkit embed; received Unknown option '--bogus'/],
  ])('%j is an InvalidArgumentError', (args, message) => {
    const error = thrown(() => parseEmbedArgs(args, {}));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
  });
});
