// pnpm bench: attnkit (tfjs-wasm, cpu) against ONNX Runtime (node 1 and 2 threads, web wasm 1 thread)
// on the same weights, in one process and one run. Writes docs/benchmarks.md and prints the same.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { env, matMul, memory, randomNormal, tidy } from '@tensorflow/tfjs-core';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { describeBackend, maxDifference, useBackend } from '@attnkit/backends';
import { loadBert, type BertModel } from '@attnkit/bert';
import { warmTimes } from './timing.js';

env().set('PROD', true);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const models = join(here, '..', 'models');
const WARM_RUNS = 7;

interface Row { model: string; shape: string; engine: string; coldMs: number; medianMs: number; tokensPerS: number; gflops: number; maxAbsVsOrt?: number }
const rows: Row[] = [];
const notes: string[] = [];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}
function ids(batch: number, length: number, vocab: number): number[][] {
  let state = 12345;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % (vocab - 1000)) + 999;
  return Array.from({ length: batch }, () => Array.from({ length }, (_, t) => (t === 0 ? 101 : t === length - 1 ? 102 : next())));
}
/** Multiply-add FLOPs of a BERT forward (matMuls only; softmax, GELU and LayerNorm are O(T·E)). */
function flops(c: { hiddenSize: number; intermediateSize: number; numHiddenLayers: number }, batch: number, length: number): number {
  const { hiddenSize: e, intermediateSize: i, numHiddenLayers: l } = c;
  const perLayer = 2 * length * e * 3 * e + 2 * 2 * length * length * e + 2 * length * e * e + 2 * 2 * length * e * i;
  return batch * (l * perLayer + 2 * e * e);
}

async function timeAttnkit(folder: string, backend: 'wasm' | 'cpu', batch: number, length: number): Promise<{ cold: number; times: number[]; hidden: Float32Array; model: BertModel }> {
  await useBackend(backend);
  const started = performance.now();
  const model = await loadBert(folder);
  const inputs = { inputIds: ids(batch, length, model.config.vocabSize) };
  const once = async () => {
    const out = model.forward(inputs);
    const hidden = (await out.lastHiddenState.data()) as Float32Array;
    out.lastHiddenState.dispose();
    out.poolerOutput.dispose();
    return hidden;
  };
  const hidden = await once();
  const cold = performance.now() - started;
  const times = await warmTimes(once, WARM_RUNS);
  return { cold, times, hidden, model };
}

function ortFeeds(ort: typeof ortNode, batch: number, length: number, vocab: number): Record<string, ortNode.Tensor> {
  const flat = ids(batch, length, vocab).flat();
  return {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(flat, BigInt), [batch, length]),
    attention_mask: new ort.Tensor('int64', BigInt64Array.from(flat, () => 1n), [batch, length]),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(flat.length), [batch, length]),
  };
}

/**
 * attnkit tfjs-wasm ÷ onnxruntime-web latency with the two runs interleaved (ours, theirs, ours, ...),
 * so both see the same machine load: one ratio per pair.
 */
async function pairedRatios(folder: string, onnx: string, batch: number, length: number, vocab: number): Promise<number[]> {
  await useBackend('wasm');
  const model = await loadBert(folder);
  const inputs = { inputIds: ids(batch, length, vocab) };
  ortWeb.env.wasm.numThreads = 1;
  const session = (await ortWeb.InferenceSession.create(new Uint8Array(readFileSync(onnx)), { executionProviders: ['wasm'] })) as unknown as ortNode.InferenceSession;
  const feeds = ortFeeds(ortWeb as unknown as typeof ortNode, batch, length, vocab);
  const timed = async (run: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await run();
    return performance.now() - t;
  };
  const ours = async () => {
    const out = model.forward(inputs);
    await out.lastHiddenState.data();
    out.lastHiddenState.dispose();
    out.poolerOutput.dispose();
  };
  const theirs = () => session.run(feeds);
  await ours();
  await theirs();
  const ratios: number[] = [];
  for (let r = 0; r < WARM_RUNS; r++) ratios.push((await timed(ours)) / (await timed(theirs)));
  await session.release();
  model.dispose();
  return ratios;
}

async function timeOrt(kind: 'node' | 'web', onnx: string, threads: number, batch: number, length: number, vocab: number): Promise<{ cold: number; times: number[]; hidden: Float32Array }> {
  const ort = (kind === 'node' ? ortNode : ortWeb) as unknown as typeof ortNode;
  if (kind === 'web') ortWeb.env.wasm.numThreads = threads;
  const started = performance.now();
  const session = kind === 'node'
    ? await ortNode.InferenceSession.create(onnx, { intraOpNumThreads: threads, interOpNumThreads: 1, executionProviders: ['cpu'] })
    : ((await ortWeb.InferenceSession.create(new Uint8Array(readFileSync(onnx)), { executionProviders: ['wasm'] })) as unknown as ortNode.InferenceSession);
  const feeds = ortFeeds(ort, batch, length, vocab);
  const once = async () => (await session.run(feeds))['last_hidden_state']!.data as Float32Array;
  const hidden = await once();
  const cold = performance.now() - started;
  const times = await warmTimes(once, WARM_RUNS);
  await session.release();
  return { cold, times, hidden };
}

async function matMulCeiling(tokens: number): Promise<number> {
  await useBackend('wasm');
  const [a, b] = [randomNormal([tokens, 384]), randomNormal([384, 1536])];
  const once = async () => { const c = matMul(a, b); await c.data(); c.dispose(); };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < 15; i++) { const t = performance.now(); await once(); times.push(performance.now() - t); }
  a.dispose(); b.dispose();
  return (2 * tokens * 384 * 1536) / (median(times) / 1000) / 1e9;
}

function ensureModels(): boolean {
  if (existsSync(join(models, 'minilm-shaped', 'model.onnx')) && existsSync(join(models, 'attnkit-tiny-bert.onnx'))) return true;
  try {
    execFileSync('/usr/bin/python3', [join(here, '..', 'scripts', 'make_bench_models.py')], { stdio: 'inherit' });
    return true;
  } catch {
    notes.push('The benchmark models could not be generated: they need Debian\'s python3-torch (`sudo apt-get install python3-torch`). Nothing was measured.');
    return false;
  }
}

async function main(): Promise<void> {
  if (!ensureModels()) return finish();
  const caps = await useBackend('wasm');
  const threads = caps.wasm?.threadCount ?? 1;
  const ceilings: Record<string, number> = {};
  const growth: Record<string, number> = {};
  const paired: number[] = [];
  const cases = [
    { name: 'attnkit-tiny-bert', folder: join(root, 'packages', 'bert', 'assets', 'attnkit-tiny-bert'), onnx: join(models, 'attnkit-tiny-bert.onnx'), cpu: true },
    { name: 'MiniLM-L6-shaped', folder: join(models, 'minilm-shaped'), onnx: join(models, 'minilm-shaped', 'model.onnx'), cpu: false },
  ];
  for (const c of cases) {
    const config = JSON.parse(readFileSync(join(c.folder, 'config.json'), 'utf8')) as { hidden_size: number; intermediate_size: number; num_hidden_layers: number; vocab_size: number };
    const shape = { hiddenSize: config.hidden_size, intermediateSize: config.intermediate_size, numHiddenLayers: config.num_hidden_layers };
    for (const [batch, length] of [[1, 128], [8, 128]] as const) {
      const label = `${batch} × ${length}`;
      const work = flops(shape, batch, length);
      const reference = await timeOrt('node', c.onnx, 2, batch, length, config.vocab_size);
      const add = (engine: string, r: { cold: number; times: number[]; hidden: Float32Array }, compare: boolean) => {
        const m = median(r.times);
        rows.push({ model: c.name, shape: label, engine, coldMs: r.cold, medianMs: m, tokensPerS: (batch * length) / (m / 1000), gflops: work / (m / 1000) / 1e9, ...(compare ? { maxAbsVsOrt: maxDifference(r.hidden, reference.hidden).maxAbsDiff } : {}) });
      };
      const wasm = await timeAttnkit(c.folder, 'wasm', batch, length);
      add(`attnkit tfjs-wasm (${threads} threads)`, wasm, true);
      if (c.name === 'MiniLM-L6-shaped' && batch === 1) {
        const before = memory().numTensors;
        for (let i = 0; i < 100; i++) { const o = wasm.model.forward({ inputIds: ids(1, 128, config.vocab_size) }); o.lastHiddenState.dispose(); o.poolerOutput.dispose(); }
        growth[`${c.name} ${label}`] = memory().numTensors - before;
      }
      wasm.model.dispose();
      if (c.cpu) {
        const cpu = await timeAttnkit(c.folder, 'cpu', batch, length);
        add('attnkit tfjs-cpu', cpu, true);
        cpu.model.dispose();
      }
      add('onnxruntime-node (1 thread)', await timeOrt('node', c.onnx, 1, batch, length, config.vocab_size), false);
      add('onnxruntime-node (2 threads)', reference, false);
      add('onnxruntime-web wasm (1 thread)', await timeOrt('web', c.onnx, 1, batch, length, config.vocab_size), true);
      if (c.name === 'MiniLM-L6-shaped') ceilings[label] = await matMulCeiling(batch * length);
      if (c.name === 'MiniLM-L6-shaped' && batch === 8) paired.push(...(await pairedRatios(c.folder, c.onnx, batch, length, config.vocab_size)));
    }
  }
  await useBackend('wasm');
  const capsNow = await describeBackend();
  finish({ ceilings, growth, paired, threads, capabilities: JSON.stringify(capsNow.wasm) });
}

function finish(extra?: { ceilings: Record<string, number>; growth: Record<string, number>; paired: number[]; threads: number; capabilities: string }): void {
  const f = (x: number, d = 1) => x.toFixed(d);
  const find = (model: string, shape: string, engine: string) => rows.find((r) => r.model === model && r.shape === shape && r.engine.startsWith(engine));
  const lines = ['# Benchmarks', '', `Generated by \`pnpm bench\` (tooling/bench/src/bench.ts) on ${new Date().toISOString().slice(0, 10)}: 2 vCPUs, Node ${process.versions.node}, tfjs 4.22, onnxruntime 1.30.0. Median of ${WARM_RUNS} warm runs after one warm-up; cold = load + first forward. One process, one run. Models: \`tooling/bench/scripts/make_bench_models.py\` (needs Debian's python3-torch), the same weights for attnkit (safetensors) and ONNX Runtime (torch.onnx.export).`, ''];
  if (rows.length > 0) {
    lines.push('| model | batch × length | engine | cold (ms) | median (ms) | tokens/s | GFLOP/s | max abs vs ORT |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows) lines.push(`| ${r.model} | ${r.shape} | ${r.engine} | ${f(r.coldMs, 0)} | ${f(r.medianMs)} | ${f(r.tokensPerS, 0)} | ${f(r.gflops)} | ${r.maxAbsVsOrt === undefined ? '–' : r.maxAbsVsOrt.toExponential(1)} |`);
  }
  if (extra !== undefined) {
    const mini = (engine: string) => find('MiniLM-L6-shaped', '8 × 128', engine);
    const [ours, web, node2] = [mini('attnkit tfjs-wasm'), mini('onnxruntime-web'), mini('onnxruntime-node (2')];
    const ceiling = extra.ceilings['8 × 128'] ?? NaN;
    const tinyCold = find('attnkit-tiny-bert', '1 × 128', 'attnkit tfjs-wasm');
    const ratio = (a: number, b: number) => a / b;
    lines.push('', '## Targets (ratios from this run)', '', '| target | measured | met |', '| --- | --- | --- |');
    if (ours && web) lines.push(`| attnkit tfjs-wasm ≤ 0.6 × onnxruntime-web wasm latency (MiniLM, 8 × 128) | ${f(ratio(ours.medianMs, web.medianMs), 2)} × (${f(ours.medianMs, 0)} vs ${f(web.medianMs, 0)} ms) | ${ratio(ours.medianMs, web.medianMs) <= 0.6 ? 'yes' : 'no'} |`);
    if (extra.paired.length > 0) {
      const m = median(extra.paired);
      lines.push(`| the same, runs interleaved pairwise (median of ${extra.paired.length} pair ratios, range) | ${f(m, 2)} × (${f(Math.min(...extra.paired), 2)}–${f(Math.max(...extra.paired), 2)}) | ${m <= 0.6 ? 'yes' : 'no'} |`);
    }
    if (ours) lines.push(`| ≥ 85 % of the tfjs-wasm matMul ceiling over the whole forward (MiniLM, 8 × 128) | ${f((100 * ours.gflops) / ceiling, 0)} % (${f(ours.gflops)} of ${f(ceiling)} GFLOP/s, ${extra.threads} threads) | ${ours.gflops / ceiling >= 0.85 ? 'yes' : 'no'} |`);
    if (ours && node2) lines.push(`| ≤ 3.5 × onnxruntime-node with 2 threads (MiniLM, 8 × 128) | ${f(ratio(ours.medianMs, node2.medianMs), 2)} × | ${ratio(ours.medianMs, node2.medianMs) <= 3.5 ? 'yes' : 'no'} |`);
    if (tinyCold) lines.push(`| embedded model cold start (load + first forward, 1 × 128) ≤ 1 s on wasm | ${f(tinyCold.coldMs, 0)} ms | ${tinyCold.coldMs <= 1000 ? 'yes' : 'no'} |`);
    lines.push(`| zero tensor growth across 100 runs | ${Object.entries(extra.growth).map(([k, v]) => `${k}: ${v}`).join(', ')} | ${Object.values(extra.growth).every((v) => v === 0) ? 'yes' : 'no'} |`);
    lines.push('', 'Runs on this 2-core machine vary by up to ±15 % between and within invocations (MiniLM 8 × 128 on 2026-11-22, four runs of this code: attnkit 770–923 ms, ORT-web 1090–1347 ms, ratio of the two medians 0.58–0.75 ×). Medians of separate blocks of runs see different machine load, so judge the first target by the interleaved pairwise ratio.');
    lines.push('', `tfjs-wasm matMul ceiling \`[B·T, 384] × [384, 1536]\`: ${Object.entries(extra.ceilings).map(([k, v]) => `${k}: ${f(v)} GFLOP/s`).join(', ')} (${extra.threads} threads).`);
    lines.push(`Peak RSS of the benchmark process: ${f(process.resourceUsage().maxRSS / 1024, 0)} MB. wasm: ${extra.capabilities}.`);
  }
  lines.push(
    '',
    '## What limits attnkit on wasm (profile: `pnpm --filter @attnkit/bench exec tsx --conditions=@attnkit/source src/profile.ts`)',
    '',
    'Per-kernel time of one MiniLM 8 × 128 forward (tf.profile, ≈ 0.9 s, spread of three profiles): the',
    'dense projections (`_FusedMatMul`, 25 calls) 484–504 ms ≈ 55 % at ≈ 43 GFLOP/s, at the matMul ceiling;',
    '`Erf` (exact GELU, one thread) 140–146 ms ≈ 15 %; `BatchMatMul` (attention scores and weighted values,',
    '12 calls) 100–127 ms ≈ 12 % at 10–12 GFLOP/s; `Slice` 37–63 ms ≈ 5 %. With every other kernel free,',
    'the matMuls alone at the ceiling take ≈ 0.52 s, so the 0.6 × target needs ORT-web ≥ 0.87 s and all',
    'non-matMul work ≤ ≈ 0.13 s; it is ≈ 0.3 s now.',
    '',
    'Removed so far, per forward: tfjs-backend-wasm 4.22 sends batched products to a naive loop (only a',
    'single untransposed matrix reaches XNNPACK; `src/layout-probe.ts`); `@attnkit/backends` now re-registers',
    '`BatchMatMul` to run each matrix through XNNPACK on zero-copy views of the heap: 614 → 150 ms (a first',
    'version that copied each matrix out with `Slice` took 3.4 s and was dropped; `src/slice-probe.ts`).',
    'The fused q/k/v split used strided slices, which tfjs-wasm copies in a JS loop; moving q/k/v to the',
    'front first makes them contiguous memcpys: 82 → 37 ms. A 5-D transpose in the same path (≈ 75× slower',
    'than 4-D in tfjs-wasm): 756 → 8 ms. A JS `Erf` on the wasm heap was measured and is slower (36 vs 23 ms',
    'per call), so it was not filled. PyTorch-layout weights (`[out, in]`, used with `transposeB`) were',
    'transposed on every call, which also made XNNPACK repack them; the `_FusedMatMul` fill now keeps one',
    'transposed copy per weight (`src/weight-layout-probe.ts`): dense projections at 1 × 128 175 → 88 ms,',
    'at 8 × 128 529 → 484 ms.',
    ...notes.map((n) => `\n${n}`),
    '',
  );
  const text = lines.join('\n');
  writeFileSync(join(root, 'docs', 'benchmarks.md'), text);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
