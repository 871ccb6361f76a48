// pnpm --filter @attnkit/bench bench:peer: attnkit against transformers.js (Chromium and Node) on one model,
// interleaved rounds; writes docs/benchmarks-peer.md and models/peer-results.json (every round's numbers).
// Options: --rounds N (3), --runs N (7 warm runs per engine and round), --webgl-runs N (2), --only chromium|node,
// --workload embed|corpus|all (all: the 8 × 128 batch and the 2 000-text corpus), --corpus-runs N (1 timed pass per
// corpus engine and round), --corpus-warmup N (256: texts of the warm-up after the model load; 2000 = a full pass), --gpu (Chromium with GPU flags, plus the webgpu engines; rows
// not on a GPU are reported as such), --out-json PATH and --out-md PATH (instead of models/peer-results.json and
// docs/benchmarks-peer.md), --engines REGEX (only the engines whose id matches, e.g. 'webgl|webgpu'; corpus ids end in their calling).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright';
import { probeGpuInChromium, runCorpusInChromium, runInChromium, servePeerPage, type BrowserResult } from './chromium.js';
import { browserCorpusGroups, nodeCorpusGroups, type CorpusGroup } from './corpus/corpus-engine.js';
import { ensureCorpusReference, readCorpusReference } from './corpus/corpus-reference.js';
import { runCorpusInNode, scoreCorpusResults, type CorpusRoundResult, type CorpusRun } from './corpus/corpus-run.js';
import { browserEngines, nodeEngines, type EngineResult, type EngineSpec } from './engine.js';
import { peerReport, type PeerRun, type RoundResult } from './report.js';
import type { GenerationRun } from '../generation/report.js';
import { benchDir, modelDir, modelsDir, referenceFile, rootDir } from './paths.js';
import { readReference } from './reference.js';
import { nodeEngineCommand } from '../built-node-engine.js';

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

/** One Node engine in a fresh process (src/peer/node-engine.ts, on attnkit's built packages). */
function runInNode(id: string, runs: number): EngineResult {
  const [command, args] = nodeEngineCommand(join('peer', 'node-engine.ts'), [id, String(runs)]); // attnkit from its built packages, as installed
  const child = spawnSync(command, args, { cwd: benchDir, encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('@@peer-result '));
  if (line === undefined) return { id, coldMs: NaN, warmMs: [], embeddings: [], ids: [], threads: '', error: `exit ${child.status}: ${child.stderr.trim().split('\n').slice(-3).join(' ')}` };
  const result = JSON.parse(line.slice('@@peer-result '.length)) as EngineResult;
  return { ...result, coldMs: result.coldMs ?? NaN };
}

/** The CPU's SIMD flags that decide int8 speed (Linux /proc/cpuinfo; '?' elsewhere). */
function simdFlags(): string {
  try {
    const flags = new Set(/^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim().split(/\s+/) ?? []);
    const kept = ['sse4_1', 'avx2', 'avx_vnni', 'avx512f', 'avx512bw', 'avx512_vnni'].filter((f) => flags.has(f));
    return kept.length > 0 ? kept.join(' ') : 'none of sse4_1 avx2 avx_vnni avx512f avx512_vnni';
  } catch {
    return '?';
  }
}

/**
 * docs/benchmarks-peer-raw.json: every timing of the run (each engine's cold and warm runs per round, the corpus
 * passes, the generation results), without the embeddings and ids (models/peer-results.json keeps those).
 */
function writeRawNumbers(run: PeerRun): void {
  const results = run.results.map(({ embeddings: _e, ids: _i, ...timings }) => timings);
  const raw = { date: run.date, machine: run.machine, rounds: run.rounds, runs: run.runs, browser: run.browser, specs: run.specs, skipped: run.skipped, results, corpus: run.corpus === undefined ? undefined : { ...run.corpus }, generation: generationRun() };
  writeFileSync(join(rootDir, 'docs', 'benchmarks-peer-raw.json'), `${JSON.stringify(raw, null, 1)}\n`);
}

/** The last `bench:generation` run (models/generation-results.json), when there is one: the page's generation section. */
function generationRun(): GenerationRun | undefined {
  const file = join(modelsDir, 'generation-results.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as GenerationRun) : undefined;
}

function rotate<T>(list: readonly T[], by: number): T[] {
  return list.map((_, i) => list[(i + by) % list.length]!);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== '--'), options: { rounds: { type: 'string', default: '3' }, runs: { type: 'string', default: '7' }, 'webgl-runs': { type: 'string', default: '2' }, only: { type: 'string' }, workload: { type: 'string', default: 'all' }, 'corpus-runs': { type: 'string', default: '1' }, 'corpus-warmup': { type: 'string', default: '256' }, gpu: { type: 'boolean', default: false }, engines: { type: 'string' }, 'out-json': { type: 'string' }, 'out-md': { type: 'string' }, 'from-results': { type: 'boolean', default: false } } }); // pnpm passes its '--' separator through
  const outJson = values['out-json'] ?? join(modelsDir, 'peer-results.json');
  const outMd = values['out-md'] ?? join(rootDir, 'docs', 'benchmarks-peer.md');
  if (values['from-results'] === true) { // the report again from the last run's numbers (models/peer-results.json or --out-json), nothing re-measured
    const saved = JSON.parse(readFileSync(outJson, 'utf8')) as PeerRun;
    writeFileSync(outMd, peerReport(saved, COMMAND, generationRun()));
    if (values['out-md'] === undefined) writeRawNumbers(saved);
    console.log(readFileSync(outMd, 'utf8'));
    return;
  }
  const [rounds, runs, webglRuns, corpusRuns] = [Number(values.rounds), Number(values.runs), Number(values['webgl-runs']), Number(values['corpus-runs'])];
  const workload = values.workload;
  if (workload !== 'embed' && workload !== 'corpus' && workload !== 'all') throw new Error(`bench:peer: --workload must be embed, corpus or all; received '${workload}'`);
  if (!(Number.isInteger(corpusRuns) && corpusRuns >= 1)) throw new Error(`bench:peer: --corpus-runs must be an integer ≥ 1; received '${values['corpus-runs']}'`);
  const corpusWarmup = Number(values['corpus-warmup']);
  if (!(Number.isInteger(corpusWarmup) && corpusWarmup >= 1)) throw new Error(`bench:peer: --corpus-warmup must be an integer ≥ 1 (texts); received '${values['corpus-warmup']}'`);
  const [embed, corpus] = [workload !== 'corpus', workload !== 'embed'];
  ensureModels();
  if (corpus) await ensureCorpusReference();
  const reference = readReference();
  const corpusReference = corpus ? readCorpusReference() : undefined;
  const all = availableParallelism();
  const skipped: string[] = [];
  const gpu = values.gpu === true;
  const pick = (list: EngineSpec[]) => (values.engines === undefined ? list : list.filter((s) => new RegExp(values.engines!).test(s.id)));
  const specs = { Chromium: values.only === 'node' || !embed ? [] : pick(browserEngines(all, gpu)), Node: values.only === 'chromium' || !embed ? [] : pick(nodeEngines(all)) };
  const pickGroups = (list: CorpusGroup[]) => (values.engines === undefined ? list : list.map((g) => ({ ...g, specs: g.specs.filter((s) => new RegExp(values.engines!).test(s.id)) })).filter((g) => g.specs.length > 0));
  const corpusGroups = { Chromium: values.only === 'node' || !corpus ? [] : pickGroups(browserCorpusGroups(all)), Node: values.only === 'chromium' || !corpus ? [] : pickGroups(nodeCorpusGroups(all)) };
  const results: RoundResult[] = [];
  const corpusResults: CorpusRoundResult[] = [];
  const browser: PeerRun['browser'] = { crossOriginIsolated: false, hardwareConcurrency: all, chromium: '–', transformers: '4.3.1', onnxruntimeWeb: '–' };
  const page = specs.Chromium.length + corpusGroups.Chromium.length > 0 ? await servePeerPage({ gpu }) : undefined;
  if (page !== undefined) {
    const probe = await chromium.launch({ executablePath: page.executable });
    browser.chromium = probe.version();
    await probe.close();
    if (gpu) {
      browser.gpu = await probeGpuInChromium(page);
      console.error(`bench:peer --gpu: WebGPU adapter: ${browser.gpu.webgpu} (${browser.gpu.webgpuOnGpu ? 'a GPU' : 'not a GPU'}); WebGL renderer: ${browser.gpu.webgl} (${browser.gpu.webglOnGpu ? 'a GPU' : 'not a GPU'})`);
    }
  }
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  /** The run so far: written after every engine, so a run cut short (gpu-bench.sh's timeout) leaves its numbers. */
  const snapshot = (): PeerRun => ({
    date: new Date().toISOString().slice(0, 10),
    machine: `${all} vCPUs (${cpu}; SIMD flags: ${simdFlags()}), Node ${process.versions.node}${process.env['ATTNKIT_BENCH_NOTE'] ? `; ${process.env['ATTNKIT_BENCH_NOTE']}` : ''}`,
    rounds,
    runs: { default: runs, ...(specs.Chromium.some((s) => s.backend === 'webgl' || s.backend === 'webgpu') ? { webgl: webglRuns } : {}) },
    browser,
    specs,
    results,
    skipped,
    reference,
    ...(corpusReference !== undefined
      ? {
          corpus: {
            runs: corpusRuns,
            warmup: Math.min(corpusWarmup, corpusReference.texts.length),
            selection: corpusReference.selection,
            realTokens: corpusReference.inputIds.reduce((sum, ids) => sum + ids.length, 0),
            length: corpusReference.length,
            texts: corpusReference.texts.length,
            groups: corpusGroups,
            results: corpusResults,
          } satisfies CorpusRun,
        }
      : {}),
  });
  const save = () => writeFileSync(outJson, JSON.stringify(snapshot()));
  // --gpu on software graphics: the webgl and webgpu rows are not GPU numbers, so they are not run (SwiftShader's
  // WebGL over Vulkan takes minutes a run) unless ATTNKIT_GPU_ROWS_ON_SOFTWARE=1 asks to check that they run.
  const software = (spec: EngineSpec) => browser.gpu !== undefined && process.env['ATTNKIT_GPU_ROWS_ON_SOFTWARE'] !== '1' &&
    ((spec.backend === 'webgpu' && !browser.gpu.webgpuOnGpu) || (spec.backend === 'webgl' && !browser.gpu.webglOnGpu));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const spec of rotate(specs.Chromium, round)) {
        if (software(spec)) {
          const what = spec.backend === 'webgpu' ? `WebGPU adapter ${browser.gpu!.webgpu}` : `WebGL renderer ${browser.gpu!.webgl}`;
          results.push({ id: spec.id, coldMs: NaN, warmMs: [], embeddings: [], ids: [], threads: '', error: `not run: no GPU (${what}; ATTNKIT_GPU_ROWS_ON_SOFTWARE=1 runs it anyway)`, where: 'Chromium', round });
          console.error(`round ${round + 1}/${rounds} Chromium ${spec.id}: not run, no GPU (${what})`);
          continue;
        }
        const count = spec.backend === 'webgl' || spec.backend === 'webgpu' ? webglRuns : runs;
        const r: BrowserResult = await runInChromium(page!, spec.id, reference.texts, count);
        Object.assign(browser, { crossOriginIsolated: r.crossOriginIsolated, hardwareConcurrency: r.hardwareConcurrency, transformers: r.transformersVersion, onnxruntimeWeb: r.onnxruntimeWebVersion });
        results.push({ ...r, where: 'Chromium', round });
        console.error(`round ${round + 1}/${rounds} Chromium ${spec.id}: ${r.error ?? `cold ${r.coldMs.toFixed(0)} ms, warm ${r.warmMs.map((t) => t.toFixed(0)).join(' ')} ms, threads ${r.threads}, workers ${r.workers}`}`);
        save();
      }
      for (const spec of rotate(specs.Node, round)) {
        const r = runInNode(spec.id, runs);
        results.push({ ...r, where: 'Node', round });
        console.error(`round ${round + 1}/${rounds} Node ${spec.id}: ${r.error ?? `cold ${r.coldMs.toFixed(0)} ms, warm ${r.warmMs.map((t) => t.toFixed(0)).join(' ')} ms, threads ${r.threads}`}`);
        save();
      }
      const logCorpus = (where: string, scored: CorpusRoundResult[]) => {
        for (const r of scored) console.error(`round ${round + 1}/${rounds} corpus ${where} ${r.id}: ${r.error ?? `${r.firstPassMs === undefined ? '' : `load + warm-up ${(r.firstPassMs / 1000).toFixed(1)} s, `}passes ${r.passMs.map((t) => (t / 1000).toFixed(1)).join(' ')} s, tokens ${r.tokens}, cosine min ${r.minCosine.toFixed(6)}, threads ${r.threads}`}`);
      };
      for (const group of rotate(corpusGroups.Chromium, round)) {
        const { results: raw, facts } = await runCorpusInChromium(page!, group, corpusReference!.texts, corpusRuns, corpusWarmup);
        Object.assign(browser, { crossOriginIsolated: facts.crossOriginIsolated, hardwareConcurrency: facts.hardwareConcurrency, transformers: facts.transformersVersion, onnxruntimeWeb: facts.onnxruntimeWebVersion });
        const scored = scoreCorpusResults(raw, corpusReference!, 'Chromium', round);
        corpusResults.push(...scored);
        logCorpus('Chromium', scored);
        save();
      }
      for (const group of rotate(corpusGroups.Node, round)) {
        const scored = scoreCorpusResults(runCorpusInNode(group, corpusRuns, corpusWarmup), corpusReference!, 'Node', round);
        corpusResults.push(...scored);
        logCorpus('Node', scored);
        save();
      }
    }
  } finally {
    await page?.close();
  }
  const run = snapshot();
  writeFileSync(outJson, JSON.stringify(run));
  const text = peerReport(run, COMMAND, generationRun());
  writeFileSync(outMd, text);
  if (values['out-md'] === undefined) writeRawNumbers(run);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
