// pnpm --filter @attnkit/bench bench:peer: attnkit against transformers.js (Chromium and Node) on one model,
// interleaved rounds; writes docs/benchmarks-peer.md and models/peer-results.json (every round's numbers).
// Options: --rounds N (3), --runs N (7 warm runs per engine and round), --webgl-runs N (2), --only chromium|node.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright';
import { runInChromium, servePeerPage, type BrowserResult } from './chromium.js';
import { browserEngines, nodeEngines, type EngineResult, type EngineSpec } from './engine.js';
import { peerReport, type PeerRun, type RoundResult } from './report.js';
import { benchDir, modelDir, modelsDir, referenceFile, rootDir } from './paths.js';
import { readReference } from './reference.js';

const COMMAND = 'pnpm --filter @attnkit/bench bench:peer';

/** models/minilm-shaped/ with the transformers.js files; generated when missing (needs Python with torch, transformers, onnx, onnxruntime). */
function ensureModels(): void {
  if (existsSync(referenceFile) && existsSync(join(modelDir, 'onnx', 'model_quantized.onnx'))) return;
  const venv = join(rootDir, '.venv-ref', 'bin', 'python');
  const python = existsSync(venv) ? venv : '/usr/bin/python3';
  const args = [join(benchDir, 'scripts', 'make_bench_models.py'), ...(existsSync(join(modelDir, 'model.safetensors')) ? ['--peer-only'] : [])];
  console.error(`bench:peer: generating the models: ${python} ${args.join(' ')}`);
  execFileSync(python, args, { stdio: 'inherit' });
  if (!existsSync(referenceFile)) throw new Error('bench:peer: the peer model files were not written: run scripts/make_bench_models.py with the reference venv (.venv-ref: torch, transformers, onnx, onnxruntime; see the README)');
}

/** One Node engine in a fresh process (src/peer/node-engine.ts). */
function runInNode(id: string, runs: number): EngineResult {
  const child = spawnSync(join(benchDir, 'node_modules', '.bin', 'tsx'), ['--conditions=@attnkit/source', join(benchDir, 'src', 'peer', 'node-engine.ts'), id, String(runs)], { cwd: benchDir, encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('@@peer-result '));
  if (line === undefined) return { id, coldMs: NaN, warmMs: [], embeddings: [], ids: [], threads: '', error: `exit ${child.status}: ${child.stderr.trim().split('\n').slice(-3).join(' ')}` };
  const result = JSON.parse(line.slice('@@peer-result '.length)) as EngineResult;
  return { ...result, coldMs: result.coldMs ?? NaN };
}

function rotate<T>(list: readonly T[], by: number): T[] {
  return list.map((_, i) => list[(i + by) % list.length]!);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== '--'), options: { rounds: { type: 'string', default: '3' }, runs: { type: 'string', default: '7' }, 'webgl-runs': { type: 'string', default: '2' }, only: { type: 'string' }, 'from-results': { type: 'boolean', default: false } } }); // pnpm passes its '--' separator through
  if (values['from-results'] === true) { // the report again from the last run's numbers (models/peer-results.json), nothing re-measured
    const text = peerReport(JSON.parse(readFileSync(join(modelsDir, 'peer-results.json'), 'utf8')) as PeerRun, COMMAND);
    writeFileSync(join(rootDir, 'docs', 'benchmarks-peer.md'), text);
    console.log(text);
    return;
  }
  const [rounds, runs, webglRuns] = [Number(values.rounds), Number(values.runs), Number(values['webgl-runs'])];
  ensureModels();
  const reference = readReference();
  const all = availableParallelism();
  const skipped: string[] = [];
  const specs = { Chromium: values.only === 'node' ? [] : browserEngines(all), Node: values.only === 'chromium' ? [] : nodeEngines(all) };
  const results: RoundResult[] = [];
  const browser = { crossOriginIsolated: false, hardwareConcurrency: all, chromium: '–', transformers: '4.3.1', onnxruntimeWeb: '–' };
  const page = specs.Chromium.length > 0 ? await servePeerPage() : undefined;
  if (page !== undefined) {
    const probe = await chromium.launch({ executablePath: page.executable });
    browser.chromium = probe.version();
    await probe.close();
  }
  try {
    for (let round = 0; round < rounds; round++) {
      for (const spec of rotate(specs.Chromium, round)) {
        const count = spec.backend === 'webgl' ? webglRuns : runs;
        const r: BrowserResult = await runInChromium(page!, spec.id, reference.texts, count);
        Object.assign(browser, { crossOriginIsolated: r.crossOriginIsolated, hardwareConcurrency: r.hardwareConcurrency, transformers: r.transformersVersion, onnxruntimeWeb: r.onnxruntimeWebVersion });
        results.push({ ...r, where: 'Chromium', round });
        console.error(`round ${round + 1}/${rounds} Chromium ${spec.id}: ${r.error ?? `cold ${r.coldMs.toFixed(0)} ms, warm ${r.warmMs.map((t) => t.toFixed(0)).join(' ')} ms, threads ${r.threads}, workers ${r.workers}`}`);
      }
      for (const spec of rotate(specs.Node, round)) {
        const r = runInNode(spec.id, runs);
        results.push({ ...r, where: 'Node', round });
        console.error(`round ${round + 1}/${rounds} Node ${spec.id}: ${r.error ?? `cold ${r.coldMs.toFixed(0)} ms, warm ${r.warmMs.map((t) => t.toFixed(0)).join(' ')} ms, threads ${r.threads}`}`);
      }
    }
  } finally {
    await page?.close();
  }
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const run: PeerRun = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${all} vCPUs (${cpu}), Node ${process.versions.node}${process.env['ATTNKIT_BENCH_NOTE'] ? `; ${process.env['ATTNKIT_BENCH_NOTE']}` : ''}`,
    rounds,
    runs: { default: runs, ...(specs.Chromium.some((s) => s.backend === 'webgl') ? { webgl: webglRuns } : {}) },
    browser,
    specs,
    results,
    skipped,
    reference,
  };
  writeFileSync(join(modelsDir, 'peer-results.json'), JSON.stringify(run));
  const text = peerReport(run, COMMAND);
  writeFileSync(join(rootDir, 'docs', 'benchmarks-peer.md'), text);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
