// Measures `attnkit search` (the built bin, dist/cli.js) over a generated index: peak RSS against
// the index's file size, and queries per second. Nothing is committed: the index is written to a
// temporary folder and removed. Run from packages/cli after `pnpm build`:
//
//   node scripts/measure-search.mjs [rows=100000] [dim=64]
//
// The index holds seeded random unit vectors of the embedded model's width (64), with an ids file
// of {"id", "text"} lines, as `attnkit embed --keep-text` writes; the queries are embedded by the
// embedded model. Peak RSS is the process's maxRSS (process.resourceUsage), read at exit by a
// preloaded hook; a 10-row index gives the baseline (Node, tfjs, the wasm backend and the model).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [rows = 100_000, dim = 64] = process.argv.slice(2).map(Number);
const bin = join(import.meta.dirname, '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'attnkit-measure-search-'));
const hook = join(dir, 'report-rss.cjs');
writeFileSync(hook, "process.on('exit', () => process.stderr.write(`maxRSS ${process.resourceUsage().maxRSS}\\n`));\n");

/** A .npy float32 [n, dim] of seeded random unit rows and its ids file, written a chunk at a time. */
function writeIndex(name, n) {
  const path = join(dir, `${name}.npy`);
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${n}, ${dim}), }`;
  const header = Buffer.alloc(128, 0x20);
  header.set([0x93, ...Buffer.from('NUMPY'), 1, 0, 118, 0]);
  header.write(dict, 10, 'latin1');
  header[127] = 0x0a;
  const fd = openSync(path, 'w');
  const ids = openSync(join(dir, `${name}.ids.jsonl`), 'w');
  writeSync(fd, header);
  let state = 12345;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) - 0.5;
  const chunk = 10_000;
  for (let start = 0; start < n; start += chunk) {
    const count = Math.min(chunk, n - start);
    const values = new Float32Array(count * dim);
    for (let r = 0; r < count; r++) {
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += (values[r * dim + d] = random()) ** 2;
      for (let d = 0; d < dim; d++) values[r * dim + d] /= Math.sqrt(norm);
    }
    writeSync(fd, Buffer.from(values.buffer));
    writeSync(ids, Array.from({ length: count }, (_, r) => `${JSON.stringify({ id: `doc-${start + r}`, text: `document number ${start + r}` })}\n`).join(''));
  }
  closeSync(fd);
  closeSync(ids);
  return path;
}

const QUERIES = Array.from({ length: 32 }, (_, i) => `query number ${i}: how do cats sleep in the afternoon?`);
function search(index, queries) {
  const args = ['-r', hook, bin, 'search', '--index', index, '--top-k', '10', '--backend', 'wasm', '--json', ...queries.flatMap((q) => ['--query', q])];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(run.stderr);
  const timing = /load (\d+) ms, search (\d+) ms/.exec(run.stderr);
  return { rss: Number(/maxRSS (\d+)/.exec(run.stderr)[1]) * 1024, load: Number(timing[1]), search: Number(timing[2]) };
}
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

try {
  const small = writeIndex('small', 10);
  const large = writeIndex('large', rows);
  const size = 128 + rows * dim * 4;
  search(small, QUERIES.slice(0, 1)); // warm the file cache and the wasm compile cache
  const baseline = search(small, QUERIES.slice(0, 1));
  const one = [0, 1, 2].map(() => search(large, QUERIES.slice(0, 1))).sort((a, b) => a.search - b.search)[1];
  const many = [0, 1, 2].map(() => search(large, QUERIES)).sort((a, b) => a.search - b.search)[1];
  console.log(`index: ${rows} rows × ${dim} float32 = ${mb(size)} (+ ids file)`);
  console.log(`peak RSS: ${mb(baseline.rss)} on a 10-row index; ${mb(one.rss)} with 1 query and ${mb(many.rss)} with ${QUERIES.length} queries on the ${rows}-row index: +${mb(Math.max(one.rss, many.rss) - baseline.rss)} for a ${mb(size)} file`);
  console.log(`the 10-row index: search ${baseline.search} ms for 1 query (mostly embedding it)`);
  console.log(`1 query: search ${one.search} ms (embedding the query included) = ${(1000 / one.search).toFixed(1)} queries/s; ${QUERIES.length} queries together: ${many.search} ms = ${((1000 * QUERIES.length) / many.search).toFixed(1)} queries/s; model load ${one.load} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
