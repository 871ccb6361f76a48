import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tensor2d } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadCrossEncoder, loadSentenceEncoder, semanticSearch } from '@attnkit/sentence';
import { thrown } from '@attnkit/test-utils';
import { parseEmbedArgs, runEmbed } from '../embed/embed-command.js';
import { npyHeader } from '../embed/npy-header.js';
import { callerPath } from '../caller-path.js';
import { embeddedModelFolder } from '../embedded-model.js';
import { npyEmbeddings } from './npy-embeddings.js';
import { parseSearchArgs, runSearch, type SearchResult } from './search-command.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const RERANKER = fileURLToPath(new URL('../../../../tooling/reference/fixtures/rerank/cross-encoders/bert/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'attnkit-search-'));
const TEXTS = [
  'A cat sleeps on the warm mat.', 'Stock markets fell sharply today.', 'The kitten naps in the sun.', 'A recipe for apple pie.',
  'Dogs like to run in the park.', 'Interest rates rose again.', 'Cats sleep sixteen hours a day.', 'How to bake bread at home.',
  'The bank raised its forecast.', 'A small cat curled up asleep.', 'Rain is expected tomorrow.', 'Shares of the company dropped.',
];
const INDEX = join(dir, 'vectors.npy');
const QUERIES = ['where do cats sleep?', 'the stock market'];
interface Run { code: number | null; stdout: string; stderr: string }
function attnkit(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  await useBackend('cpu');
  writeFileSync(join(dir, 'corpus.jsonl'), TEXTS.map((text, i) => JSON.stringify({ id: `doc-${i}`, text })).join('\n'));
  await runEmbed(parseEmbedArgs([join(dir, 'corpus.jsonl'), '--output', INDEX, '--backend', 'cpu', '--keep-text'], {}));
}, 120_000);

describe('parseSearchArgs', () => {
  it.each([
    [['--query', 'a'], "attnkit search: '--index' must be the .npy index to search (attnkit embed ... --output vectors.npy); received none."],
    [['--index', 'vectors.jsonl', '--query', 'a'], `attnkit search: '--index' must be a .npy file (attnkit embed writes OUT.npy with OUT.ids.jsonl beside it); received "${callerPath('vectors.jsonl')}".`],
    [['--index', 'v.npy'], "attnkit search: '--query' must be one or more queries (--query \"...\"); received none."],
    [['--index', 'v.npy', '--query', 'a', '--candidates', '20'], "attnkit search: '--candidates' must be given with --rerank (the hits the cross-encoder rescores); received --candidates 20 without --rerank."],
    [['--index', 'v.npy', '--query', 'a', '--top-k', '0'], "attnkit search: '--top-k' must be a whole number from 1 to 100000; received \"0\"."],
    [['--index', 'v.npy', '--query', 'a', '--top-k', '2.5'], "attnkit search: '--top-k' must be a whole number from 1 to 100000; received \"2.5\"."],
    [['--index', 'v.npy', '--query', 'a', '--score-function', 'cos_sim'], "attnkit search: '--score-function' must be cosine, dot, euclidean, manhattan; received \"cos_sim\"."],
    [['--index', 'v.npy', '--query', ''], "attnkit search: '--query' must be non-empty text; received \"\"."],
  ])('%j is a typed usage error', (args, message) => {
    const error = thrown(() => parseSearchArgs(args));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message.startsWith(message)).toBe(true);
  });

  it('defaults: the embedded model, 10 hits, no reranking, wasm', () => {
    expect(parseSearchArgs(['--index', INDEX, '--query', 'a'])).toMatchObject({ index: INDEX, model: embeddedModelFolder(), topK: 10, rerank: undefined, candidates: undefined, backend: 'wasm', json: false });
  });
});

describe('runSearch', () => {
  it('finds what semanticSearch finds over the embedded vectors, with the ids and texts beside the index', async () => {
    const result = await runSearch(parseSearchArgs(['--index', INDEX, '--query', QUERIES[0]!, '--query', QUERIES[1]!, '--top-k', '3', '--backend', 'cpu']));
    const model = await loadSentenceEncoder(embeddedModelFolder());
    const queries = await model.encode(QUERIES);
    const file = npyEmbeddings(INDEX);
    const corpus = tensor2d(file.read(0, file.rows), [file.rows, file.dim]);
    file.close();
    const want = await semanticSearch(queries, corpus, { topK: 3 });
    [queries, corpus].forEach((t) => t.dispose());
    model.dispose();
    expect([result.rows, result.dim, result.scoreFunction, result.notices]).toEqual([12, 64, 'cosine', []]);
    expect(result.queries.map((q) => q.hits.map((h) => h.row))).toEqual(want.map((hits) => hits.map((h) => h.corpusId)));
    result.queries.forEach((q, i) => q.hits.forEach((h, j) => {
      expect(Math.abs(h.score - want[i]![j]!.score)).toBeLessThanOrEqual(1e-6);
      expect([h.id, h.text]).toEqual([`doc-${h.row}`, TEXTS[h.row]]);
    }));
  }, 60_000);

  it('--rerank rescores the candidates with the cross-encoder and keeps the best --top-k', async () => {
    const result = await runSearch(parseSearchArgs(['--index', INDEX, '--query', QUERIES[0]!, '--rerank', RERANKER, '--candidates', '6', '--top-k', '2', '--backend', 'cpu']));
    const searched = await runSearch(parseSearchArgs(['--index', INDEX, '--query', QUERIES[0]!, '--top-k', '6', '--backend', 'cpu']));
    const reranker = await loadCrossEncoder(RERANKER);
    const want = await reranker.rank(QUERIES[0]!, searched.queries[0]!.hits.map((h) => h.text!), { topK: 2 });
    reranker.dispose();
    const hits = result.queries[0]!.hits;
    expect(hits.map((h) => h.row)).toEqual(want.map((w) => searched.queries[0]!.hits[w.corpusId]!.row));
    hits.forEach((h, i) => expect(Math.abs(h.score - want[i]!.score)).toBeLessThanOrEqual(1e-6));
    expect(hits.map((h) => h.searchScore)).toEqual(want.map((w) => searched.queries[0]!.hits[w.corpusId]!.score));
    expect(result.timingsMs.rerank).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('refuses an index of another width, a truncated one, one without its ids file, and --rerank without texts', async () => {
    const other = join(dir, 'other.npy');
    writeFileSync(other, Buffer.concat([npyHeader(2, 5), Buffer.alloc(40)]));
    writeFileSync(join(dir, 'other.ids.jsonl'), '0\n1\n');
    await expect(runSearch(parseSearchArgs(['--index', other, '--query', 'a', '--backend', 'cpu']))).rejects.toThrow(/^attnkit search: '--index' must be rows as wide as the model's embeddings \(64\): an index embedded with .*; received rows of width 5 in .*other\.npy\./);
    const cut = join(dir, 'cut.npy');
    writeFileSync(cut, readFileSync(INDEX).subarray(0, 128 + 64 * 4 * 3 + 10));
    copyFileSync(join(dir, 'vectors.ids.jsonl'), join(dir, 'cut.ids.jsonl'));
    await expect(runSearch(parseSearchArgs(['--index', cut, '--query', 'a', '--backend', 'cpu']))).rejects.toThrow(/^attnkit search: '--index' must be 3200 bytes \(a 128-byte header and 12 × 64 float32 values\); received 906 bytes \(truncated\?\)/);
    const lonely = join(dir, 'lonely.npy');
    copyFileSync(INDEX, lonely);
    await expect(runSearch(parseSearchArgs(['--index', lonely, '--query', 'a', '--backend', 'cpu']))).rejects.toThrow(/^attnkit search: '--index' must be an index with its ids file beside it \(.*lonely\.ids\.jsonl\); received no ids file\./);
    const plain = join(dir, 'plain.npy');
    copyFileSync(INDEX, plain);
    writeFileSync(join(dir, 'plain.ids.jsonl'), TEXTS.map((_, i) => `${i}\n`).join(''));
    await expect(runSearch(parseSearchArgs(['--index', plain, '--query', 'a', '--rerank', RERANKER, '--backend', 'cpu']))).rejects.toThrow(/^attnkit search: '--rerank' must be an index whose ids file keeps the texts \(\{"id", "text"\} per line: attnkit embed --keep-text\), for the cross-encoder to read; received an ids file without texts/);
  }, 60_000);
});

describe('attnkit search (the built bin)', () => {
  it('prints the hits of each query, as JSON with --json; a truncated index exits 2', async () => {
    const json = await attnkit(['search', '--index', 'vectors.npy', '--query', QUERIES[0]!, '--top-k', '4', '--backend', 'cpu', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toMatch(/^attnkit search: 1 query over 12 rows of 64 dims on cpu, load \d+ ms, search \d+ ms\n$/);
    const result = JSON.parse(json.stdout) as SearchResult;
    const inProcess = await runSearch(parseSearchArgs(['--index', INDEX, '--query', QUERIES[0]!, '--top-k', '4', '--backend', 'cpu']));
    expect(result.queries).toEqual(inProcess.queries);
    const text = await attnkit(['search', '--index', 'vectors.npy', '--query', QUERIES[0]!, '--top-k', '2', '--backend', 'cpu']);
    const [first, second] = inProcess.queries[0]!.hits;
    expect(text.stdout).toBe(`query 1: ${QUERIES[0]}\n    1. ${first!.score.toFixed(4)}  ${first!.id}  ${first!.text}\n    2. ${second!.score.toFixed(4)}  ${second!.id}  ${second!.text}\n`);
    const cut = await attnkit(['search', '--index', 'cut.npy', '--query', 'a', '--backend', 'cpu']);
    expect([cut.code, cut.stdout]).toEqual([2, '']);
    expect(cut.stderr).toMatch(/^attnkit search: '--index' must be 3200 bytes/);
  }, 120_000);
});
