// pnpm --filter @attnkit/bench bench:generation: attnkit against transformers.js generating (prefill and decode
// tokens/s) on a SmolLM-135M-shaped Llama and a GPT-2-small-shaped GPT-2, fp32 and int8 / q8, batch 1 and 4, in
// Chromium and Node, with the memory bandwidth measured in the same run; interleaved rounds, every engine on every
// model a fresh process or browser. Writes models/generation-results.json (every number) and prints the report
// (generationReport). Options: --rounds N (1), --runs N (1 timed call per batch size), --threads N (2: every engine's
// threads, the bandwidth probe's too), --only chromium|node,
// --models smollm-shaped,gpt2-shaped, --attnkit-tfjs-threads 1 (adds attnkit engines whose tfjs-wasm runs on 1
// thread, its kernel threads on all), --from-results (the report again from the last results file).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDir, modelsDir, rootDir } from '../peer/paths.js';
import { nodeEngineCommand } from '../built-node-engine.js';
import type { BandwidthResult } from './bandwidth.js';
import { bandwidthInChromium, runGenerationInChromium, serveGenerationPage, type PageFacts } from './chromium-run.js';
import { browserGenerationEngines, GENERATION_MODELS, nodeGenerationEngines, type GenerationEngine } from './engines.js';
import type { EngineModelResult } from './measure.js';
import { generationModelDir, readGenerationReference, readModelConfig } from './paths.js';
import { generationReport, type GenerationRun, type Where } from './report.js';
import { stepBytes } from './weights.js';

const COMMAND = 'pnpm --filter @attnkit/bench bench:generation';
const RESULTS = join(modelsDir, 'generation-results.json');

/** models/<model>/ with the ONNX files and generation-reference.json; generated when missing (needs the reference venv: torch, transformers, onnx, onnxruntime). */
function ensureModels(models: readonly string[]): void {
  for (const model of models) {
    const folder = generationModelDir(model);
    if (existsSync(join(folder, 'generation-reference.json')) && existsSync(join(folder, 'onnx', 'model_quantized.onnx'))) continue;
    const venv = join(rootDir, '.venv-ref', 'bin', 'python');
    const python = existsSync(venv) ? venv : '/usr/bin/python3';
    const args = [join(benchDir, 'scripts', 'make_generation_models.py'), '--only', model];
    console.error(`bench:generation: generating ${model}: ${python} ${args.join(' ')}`);
    execFileSync(python, args, { stdio: 'inherit', cwd: join(benchDir, 'scripts') });
    if (!existsSync(join(folder, 'generation-reference.json'))) throw new Error(`bench:generation: ${model} was not written: run scripts/make_generation_models.py with the reference venv (.venv-ref: torch, transformers, onnx, onnxruntime)`);
  }
}

/** Runs src/generation/node-engine.ts in a fresh Node process (attnkit's built packages) and reads its JSON line. */
function runNode<T>(args: string[]): T | { error: string } {
  const [command, commandArgs] = nodeEngineCommand(join('generation', 'node-engine.ts'), args); // attnkit from its built packages, as installed
  const child = spawnSync(command, commandArgs, { cwd: benchDir, encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('@@generation-result '));
  if (line === undefined) return { error: `exit ${child.status}: ${child.stderr.trim().split('\n').slice(-3).join(' ')}` };
  return JSON.parse(line.slice('@@generation-result '.length)) as T;
}

function rotate<T>(list: readonly T[], by: number): T[] {
  return list.map((_, i) => list[(i + by) % list.length]!);
}

const brief = (r: EngineModelResult) =>
  r.error ?? `load ${r.loadMs.toFixed(0)} ms; ${r.batches.map((b) => `batch ${b.batch}: prefill ${b.runs.map((x) => ((b.batch * 128) / (x.prefillMs / 1000)).toFixed(0)).join(' ')} tok/s, decode ${b.runs.map((x) => ((b.batch * 63) / (x.decodeMs / 1000)).toFixed(1)).join(' ')} tok/s`).join('; ')}; threads ${r.threads}`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'), // pnpm passes its '--' separator through
    options: { rounds: { type: 'string', default: '1' }, threads: { type: 'string', default: '2' }, runs: { type: 'string', default: '1' }, only: { type: 'string' }, 'attnkit-tfjs-threads': { type: 'string' }, models: { type: 'string' }, 'from-results': { type: 'boolean', default: false } },
  });
  if (values['from-results'] === true) {
    console.log(generationReport(JSON.parse(readFileSync(RESULTS, 'utf8')) as GenerationRun));
    return;
  }
  const started = performance.now();
  const [rounds, runs] = [Number(values.rounds), Number(values.runs)];
  const models = values.models === undefined ? [...GENERATION_MODELS] : values.models.split(',');
  const unknown = models.filter((m) => !(GENERATION_MODELS as readonly string[]).includes(m));
  if (unknown.length > 0 || !(rounds >= 1) || !(runs >= 1)) throw new Error(`bench:generation: --rounds and --runs ≥ 1, --models from ${GENERATION_MODELS.join(', ')}; received rounds ${values.rounds}, runs ${values.runs}, models ${models.join(', ')}`);
  const batches = [1, 4];
  const tfjsVariants = values['attnkit-tfjs-threads'] === undefined ? [] : values['attnkit-tfjs-threads'].split(',').map(Number);
  ensureModels(models);
  const modelInfo = Object.fromEntries(models.map((m) => {
    const reference = readGenerationReference(m);
    const bytes = stepBytes(readModelConfig(m));
    if (bytes.parameters !== reference.parameters) throw new Error(`bench:generation: ${m}: the byte count's parameters (${bytes.parameters}) differ from PyTorch's (${reference.parameters})`);
    return [m, { parameters: reference.parameters, bytes, torchGreedy: reference.torchGreedy, onnxChecks: reference.onnxChecks }];
  }));
  const threads = Number(values.threads);
  if (!(threads >= 1)) throw new Error(`bench:generation: --threads ≥ 1; received ${values.threads}`);
  const engines: Record<Where, GenerationEngine[]> = { Chromium: values.only === 'node' ? [] : browserGenerationEngines(threads, tfjsVariants), Node: values.only === 'chromium' ? [] : nodeGenerationEngines(threads, tfjsVariants) };
  const results: GenerationRun['results'][number][] = [];
  const bandwidth: GenerationRun['bandwidth'][number][] = [];
  const prompts = Object.fromEntries(models.map((m) => [m, readGenerationReference(m).prompts]));
  let facts: PageFacts | undefined;
  const page = engines.Chromium.length > 0 ? await serveGenerationPage() : undefined;
  const log = (round: number, where: Where, what: string) => console.error(`round ${round + 1}/${rounds} ${where} ${what} (${((performance.now() - started) / 60000).toFixed(1)} min)`);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const where of rotate(['Chromium', 'Node'] as const, round)) {
        if (engines[where].length === 0) continue;
        for (const n of [...new Set([1, threads])]) {
          const b = where === 'Chromium' ? await bandwidthInChromium(page!, n) : runNode<BandwidthResult>(['bandwidth', String(n)]);
          const entry = { threads: n, gbPerSecond: NaN, passes: [], bytes: 0, method: '', ...b, where, round };
          if ('facts' in entry) delete (entry as { facts?: unknown }).facts;
          bandwidth.push(entry);
          log(round, where, `bandwidth ${n} thread${n > 1 ? 's' : ''}: ${'error' in b ? b.error : `${b.gbPerSecond.toFixed(1)} GB/s`}`);
        }
        for (const model of rotate(models, round)) {
          for (const spec of rotate(engines[where], round)) {
            let r: EngineModelResult;
            if (where === 'Chromium') {
              const { facts: f, ...rest } = await runGenerationInChromium(page!, spec.id, model, prompts[model]!, runs, batches, threads);
              facts = f;
              r = rest;
            } else {
              const out = runNode<EngineModelResult>([spec.id, model, String(runs), batches.join(','), String(threads)]);
              r = 'engine' in out ? out : { engine: spec.id, model, loadMs: NaN, batches: [], threads: '', error: out.error };
            }
            results.push({ ...r, where, round });
            log(round, where, `${model} ${spec.id}: ${brief(r)}`);
          }
        }
      }
    }
  } finally {
    await page?.close();
  }
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const run: GenerationRun = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${availableParallelism()} vCPUs (${cpu}), Node ${process.versions.node}${facts ? `, Chromium ${facts.chromium} (cross-origin isolated: ${facts.crossOriginIsolated})` : ''}${process.env['ATTNKIT_BENCH_NOTE'] ? `; ${process.env['ATTNKIT_BENCH_NOTE']}` : ''}`,
    command: `${COMMAND}${process.argv.slice(2).filter((a) => a !== '--').length > 0 ? ` -- ${process.argv.slice(2).filter((a) => a !== '--').join(' ')}` : ''}`,
    rounds,
    runs,
    batches,
    threads,
    wallSeconds: (performance.now() - started) / 1000,
    versions: { transformers: facts?.transformersVersion ?? '4.3.1', onnxruntimeWeb: facts?.onnxruntimeWebVersion ?? '–', node: process.versions.node },
    engines,
    models: modelInfo,
    bandwidth,
    results,
    skipped: [],
  };
  writeFileSync(RESULTS, JSON.stringify(run));
  console.log(generationReport(run));
  console.error(`bench:generation: ${(run.wallSeconds / 60).toFixed(1)} min; results in ${RESULTS}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
