// The generation bench's markdown section: `generationReport(run)` from models/generation-results.json.
import { median } from '../peer/stats.js';
import type { BandwidthResult } from './bandwidth.js';
import type { GenerationEngine } from './engines.js';
import { NEW_TOKENS, PROMPT_LENGTH, type EngineModelResult } from './measure.js';
import type { StepBytes } from './weights.js';

export type Where = 'Chromium' | 'Node';

/** Everything one `bench:generation` run measured (models/generation-results.json). */
export interface GenerationRun {
  readonly date: string;
  readonly machine: string;
  readonly command: string;
  readonly rounds: number;
  readonly runs: number;
  readonly batches: number[];
  readonly threads: number;
  readonly wallSeconds: number;
  readonly versions: Record<string, string>;
  readonly engines: Record<Where, GenerationEngine[]>;
  readonly models: Record<string, { readonly parameters: number; readonly bytes: StepBytes; readonly torchGreedy: number[][]; readonly onnxChecks: Record<string, Record<string, unknown>> }>;
  readonly bandwidth: (BandwidthResult & { readonly where: Where; readonly round: number; readonly error?: string })[];
  readonly results: (EngineModelResult & { readonly where: Where; readonly round: number })[];
  readonly skipped: string[];
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const MODEL_SHAPES: Record<string, string> = {
  'smollm-shaped': 'a SmolLM-135M-shaped Llama (30 layers, hidden 576, 9 heads, 3 key/value heads, intermediate 1536, vocab 49152, tied)',
  'gpt2-shaped': 'a GPT-2-small-shaped GPT-2 (12 layers, 768, 12 heads, vocab 50257, 1024 positions, tied)',
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Prompt tokens per second of one run: B × 128 / time to the first token. */
const prefillRate = (batch: number, ms: number) => (batch * PROMPT_LENGTH) / (ms / 1000);
/** Decoded tokens per second of one run, all rows: B × (64 − 1) / time from the first to the last token. */
const decodeRate = (batch: number, ms: number) => (batch * (NEW_TOKENS - 1)) / (ms / 1000);

type Result = GenerationRun['results'][number];

function rates(result: Result, batch: number): { prefill: number; decode: number } | undefined {
  const b = result.batches.find((x) => x.batch === batch);
  if (b === undefined || b.runs.length === 0) return undefined;
  return { prefill: median(b.runs.map((r) => prefillRate(batch, r.prefillMs))), decode: median(b.runs.map((r) => decodeRate(batch, r.decodeMs))) };
}

/** Leading tokens two token lists share. */
function agreeing(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Median bandwidth of an environment at a thread count over the rounds. */
function bandwidthOf(run: GenerationRun, where: Where, threads: number): number {
  const values = run.bandwidth.filter((b) => b.where === where && b.threads === threads && b.error === undefined).map((b) => b.gbPerSecond);
  return values.length > 0 ? median(values) : NaN;
}

/**
 * The bandwidth the bound divides by: the highest measurement at `threads` in the run, Chromium or
 * Node, any round (the same wasm loop over the same memory; another process or thread on the cores
 * only lowers a measurement, so the highest is the closest to what the machine gives, and a noisy
 * round cannot make the target easier).
 */
function boundBandwidth(run: GenerationRun, threads: number): number {
  const values = run.bandwidth.filter((b) => b.threads === threads && b.error === undefined).map((b) => b.gbPerSecond);
  return values.length > 0 ? Math.max(...values) : NaN;
}

/** Bytes one decode step reads for an engine: fp32, or the int8 count (1 B a weight + per-row scales, head included). */
const boundBytes = (run: GenerationRun, model: string, precision: GenerationEngine['precision']) => (precision === 'fp32' ? run.models[model]!.bytes.fp32 : run.models[model]!.bytes.int8);

/** The markdown section of one generation run: bandwidth, per-engine medians and per-round numbers, ratios, the bound, token agreement, targets. */
export function generationReport(run: GenerationRun): string {
  const lines: string[] = [];
  const wheres = (['Chromium', 'Node'] as const).filter((w) => run.engines[w].length > 0);
  lines.push(
    '## Generation: attnkit against transformers.js and the memory-bandwidth bound',
    '',
    `${run.date}, ${run.machine}; \`${run.command}\`: ${run.rounds} interleaved round${run.rounds > 1 ? 's' : ''} (engine order rotated each round; every engine on every model a fresh process or a fresh Chromium), ${run.runs} timed generate call${run.runs > 1 ? 's' : ''} per batch size after a warm-up call${run.runs > 1 ? ' (a cell is the median of those calls within a round, then of the rounds; the first call after the short warm-up still runs partly unoptimized JavaScript in every engine: each call is in "Every round")' : ''}, ${run.threads} threads everywhere; the whole run took ${f0(run.wallSeconds / 60)} min.`,
    '',
    `Models (random weights, \`scripts/make_generation_models.py\`): ${Object.entries(run.models).map(([m, info]) => `**${m}**, ${MODEL_SHAPES[m] ?? 'a decoder'}; ${f1(info.parameters / 1e6)} M parameters`).join('; ')}.`,
    `Workload: prompts of ${PROMPT_LENGTH} token ids (batch 1: row 0; batch 4: rows 0–3, no padding), greedy, ${NEW_TOKENS} new tokens, eos disabled. **Prefill** = B × ${PROMPT_LENGTH} / (generate call to the first token: the prompt's forward over an empty cache, its last logits, the token chosen). **Decode** = B × ${NEW_TOKENS - 1} / (first to last token), tokens/s over all rows.`,
    'attnkit: `loadCausalLM(folder)` (int8: `{ quantize: \'int8\' }`), `model.generate(rows, { maxNewTokens, eosTokenId: null, doSample: false })` on tfjs-wasm + attnkit\'s kernel threads. transformers.js: `AutoModelForCausalLM.from_pretrained(model, { dtype: \'fp32\' | \'q8\' })` and `model.generate({ input_ids, attention_mask, max_new_tokens, do_sample: false, eos_token_id: null, streamer })` — what its `text-generation` pipeline calls after tokenizing; on onnxruntime-web wasm in Chromium, onnxruntime-node in Node. Its ONNX has `num_logits_to_keep` (1 while generating), so neither library computes the prompt\'s other logits. onnxruntime-web (Node): the same model.onnx, a plain greedy loop in the bench.',
    '',
  );

  lines.push('### Memory bandwidth (measured in the same run)', '', '| environment | threads | GB/s (median over rounds) | every round | how |', '| --- | --- | --- | --- | --- |');
  for (const where of wheres) {
    for (const threads of [...new Set(run.bandwidth.filter((b) => b.where === where).map((b) => b.threads))]) {
      const list = run.bandwidth.filter((b) => b.where === where && b.threads === threads);
      const ok = list.filter((b) => b.error === undefined);
      lines.push(`| ${where} | ${threads} | ${f1(bandwidthOf(run, where, threads))} | ${list.map((b) => (b.error ? 'failed' : f1(b.gbPerSecond))).join(', ')} | ${ok[0]?.method ?? list[0]?.error ?? '–'} |`);
    }
  }
  lines.push('', `The bound: decode steps/s ≤ bandwidth ÷ weight bytes read per step, the bandwidth the highest ${run.threads}-thread measurement above (${f1(boundBandwidth(run, run.threads))} GB/s; Chromium or Node, any round: the same loop over the same memory, and interference only lowers a measurement), the same for both environments; tokens/s bound = B × that. Counted per step: every matrix read fully once (whatever B is; the tied head, V × E, fully), norms and biases, one embedding row per table (per token: B rows, ignored); the KV cache and activations are not counted. fp32: 4 B a parameter. int8: 1 B a matrix weight + one float32 scale per output row (the head included), the rest float32 — the bound both attnkit int8 and transformers.js q8 are measured against.`, '');
  lines.push(`| model | fp32 bytes/step | int8 bytes/step | attnkit int8 as loaded (tied head int8) | bound fp32 steps/s | bound int8 steps/s |`, '| --- | --- | --- | --- | --- | --- |');
  for (const [model, info] of Object.entries(run.models)) {
    const bound = (bytes: number) => f1((boundBandwidth(run, run.threads) * 1e9) / bytes);
    lines.push(`| ${model} | ${mb(info.bytes.fp32)} | ${mb(info.bytes.int8)} | ${mb(info.bytes.attnkitInt8)} | ${bound(info.bytes.fp32)} | ${bound(info.bytes.int8)} |`);
  }

  // medians per engine, model, batch; ratios per round
  const ratioInRound = (r: Result, batch: number, pick: 'prefill' | 'decode'): number[] => {
    const spec = run.engines[r.where].find((s) => s.id === r.engine);
    if (spec?.peer === undefined) return [];
    const values: number[] = [];
    for (let round = 0; round < run.rounds; round++) {
      const mine = run.results.find((x) => x.where === r.where && x.engine === r.engine && x.model === r.model && x.round === round);
      const peer = run.results.find((x) => x.where === r.where && x.engine === spec.peer && x.model === r.model && x.round === round);
      const a = mine && rates(mine, batch);
      const b = peer && rates(peer, batch);
      if (a && b) values.push(a[pick] / b[pick]);
    }
    return values;
  };
  lines.push('', '### Results (medians over rounds)', '', '| where | model | engine | batch | load ms | prefill tok/s | decode tok/s | decode vs transformers.js (same precision, per round) | prefill vs transformers.js | % of bound (decode) |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const groups = new Map<string, Result[]>();
  for (const r of run.results) groups.set(`${r.where}|${r.model}|${r.engine}`, [...(groups.get(`${r.where}|${r.model}|${r.engine}`) ?? []), r]);
  const summary = new Map<string, { decode: number; ratio: number; percent: number }>();
  for (const [key, list] of groups) {
    const [where, model, engine] = key.split('|') as [Where, string, string];
    const spec = run.engines[where].find((s) => s.id === engine)!;
    const ok = list.filter((r) => r.error === undefined);
    if (ok.length === 0) {
      lines.push(`| ${where} | ${model} | ${engine} | – | – | – | – | – | – | – |`);
      continue;
    }
    for (const batch of run.batches) {
      const per = ok.map((r) => rates(r, batch)).filter((x) => x !== undefined);
      if (per.length === 0) continue;
      const [prefill, decode] = [median(per.map((p) => p.prefill)), median(per.map((p) => p.decode))];
      const decodeRatios = ratioInRound(ok[0]!, batch, 'decode');
      const prefillRatios = ratioInRound(ok[0]!, batch, 'prefill');
      const boundSteps = (boundBandwidth(run, run.threads) * 1e9) / boundBytes(run, model, spec.precision);
      const percent = (100 * decode) / batch / boundSteps;
      const ratio = decodeRatios.length > 0 ? median(decodeRatios) : NaN;
      summary.set(`${where}|${model}|${engine}|${batch}`, { decode, ratio, percent });
      const show = (values: number[]) => (values.length === 0 ? '–' : `${f2(median(values))} ×${values.length > 1 ? ` (${values.map(f2).join(', ')})` : ''}`);
      lines.push(`| ${where} | ${model} | ${engine} | ${batch} | ${f0(median(ok.map((r) => r.loadMs)))} | ${f0(prefill)} | ${f1(decode)} | ${show(decodeRatios)} | ${show(prefillRatios)} | ${f0(percent)} % |`);
    }
  }

  lines.push('', '### Every round', '', '| where | model | engine | batch | round | prefill tok/s (each run) | decode tok/s (each run) | threads |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of run.results) {
    if (r.error !== undefined) continue;
    for (const b of r.batches) lines.push(`| ${r.where} | ${r.model} | ${r.engine} | ${b.batch} | ${r.round + 1} | ${b.runs.map((x) => f0(prefillRate(b.batch, x.prefillMs))).join(', ')} | ${b.runs.map((x) => f1(decodeRate(b.batch, x.decodeMs))).join(', ')} | ${r.threads} |`);
  }

  lines.push('', '### Greedy tokens: leading tokens that agree (first round; random weights give near-ties, so agreement is reported, not required)', '', '| where | model | engine | batch 1 vs transformers.js fp32 | batch 1 vs PyTorch fp32 | batch 4 vs PyTorch fp32 (fewest over rows) |', '| --- | --- | --- | --- | --- | --- |');
  for (const r of run.results.filter((x) => x.round === 0 && x.error === undefined)) {
    const torch = run.models[r.model]!.torchGreedy;
    const peer = run.results.find((x) => x.round === 0 && x.where === r.where && x.model === r.model && x.engine.startsWith('transformers.js fp32'));
    const b1 = r.batches.find((b) => b.batch === 1)?.tokens[0];
    const b4 = r.batches.find((b) => b.batch === 4)?.tokens;
    const peerTokens = peer?.batches.find((b) => b.batch === 1)?.tokens[0];
    lines.push(`| ${r.where} | ${r.model} | ${r.engine} | ${b1 && peerTokens ? `${agreeing(b1, peerTokens)} / ${NEW_TOKENS}` : '–'} | ${b1 ? `${agreeing(b1, torch[0]!)} / ${NEW_TOKENS}` : '–'} | ${b4 ? `${Math.min(...b4.map((row, i) => agreeing(row, torch[i]!)))} / ${NEW_TOKENS}` : '–'} |`);
  }
  const checks = Object.entries(run.models).map(([m, info]) => {
    const c = info.onnxChecks['model.onnx'] as Record<string, number>;
    return `${m}: prompt ${c['prompt_max_abs']?.toExponential(1)}, decode step ${c['decode_step_max_abs']?.toExponential(1)}`;
  });
  lines.push('', `ONNX export check (onnxruntime Python CPU vs transformers float32, max |Δlogit|, limit 1e-4): ${checks.join('; ')}.`);

  const notRun = run.results.filter((r) => r.error !== undefined).map((r) => `- ${r.where}, ${r.model}, ${r.engine}, round ${r.round + 1}: ${r.error}`);
  if (notRun.length + run.skipped.length > 0) lines.push('', 'Not run:', '', ...run.skipped.map((s) => `- ${s}`), ...notRun);

  lines.push('', '### Targets', '', '| target | where | model | batch | measured | met |', '| --- | --- | --- | --- | --- | --- |');
  for (const where of wheres) {
    for (const model of Object.keys(run.models)) {
      for (const batch of run.batches) {
        for (const precision of ['fp32', 'int8'] as const) {
          const spec = run.engines[where].find((s) => s.library === 'attnkit' && s.precision === precision);
          const s = spec && summary.get(`${where}|${model}|${spec.id}|${batch}`);
          const text = `attnkit ${precision} decode ≥ 1.0 × transformers.js ${precision === 'fp32' ? 'fp32' : 'q8'}${where === 'Node' ? ' (onnxruntime-node, native)' : ''}`;
          const met = s && Number.isFinite(s.ratio) ? (where === 'Node' ? 'no target: the native gap, reported (Node\'s target is onnxruntime-web, below)' : s.ratio >= 1 ? 'met' : 'not met') : '–';
          lines.push(`| ${text} | ${where} | ${model} | ${batch} | ${s ? `${f2(s.ratio)} ×` : 'not measured'} | ${met} |`);
        }
        const web = run.engines[where].find((e) => e.library === 'onnxruntime-web');
        const fp32 = run.engines[where].find((e) => e.library === 'attnkit' && e.precision === 'fp32');
        if (web !== undefined && fp32 !== undefined) { // Node's own target: no slower than onnxruntime-web (wasm) at the same threads
          const [ours, theirs] = [summary.get(`${where}|${model}|${fp32.id}|${batch}`), summary.get(`${where}|${model}|${web.id}|${batch}`)];
          const r = ours && theirs ? ours.decode / theirs.decode : NaN;
          lines.push(`| attnkit fp32 decode ≥ 1.0 × onnxruntime-web fp32 (wasm) | ${where} | ${model} | ${batch} | ${Number.isFinite(r) ? `${f2(r)} ×` : 'not measured'} | ${Number.isFinite(r) ? (r >= 1 ? 'met' : 'not met') : '–'} |`);
        }
        const spec = run.engines[where].find((s) => s.library === 'attnkit' && s.precision === 'int8');
        const s = spec && summary.get(`${where}|${model}|${spec.id}|${batch}`);
        lines.push(`| attnkit int8 decode ≥ 50 % of the int8 bandwidth bound | ${where} | ${model} | ${batch} | ${s ? `${f0(s.percent)} %` : 'not measured'} | ${s && Number.isFinite(s.percent) ? (s.percent >= 50 ? 'met' : 'not met') : '–'} |`);
      }
    }
  }
  lines.push(...arithmeticAtHalfTheBound(run, wheres));
  return `${lines.join('\n')}\n`;
}

/**
 * What 50 % of the int8 bound asks of the arithmetic: a decode step of batch B does B × (the
 * matrices' parameters) int8 multiply-adds, so running at half the bound's steps/s needs that many
 * per second; beside it, the rate attnkit int8 reached in the same run's prefill at batch 4 (B · 128
 * rows through every matrix, the head for the last row only: the kernels' largest, compute-bound
 * products). Where the need is above what prefill reached, the step is bound by arithmetic here,
 * not by memory.
 */
function arithmeticAtHalfTheBound(run: GenerationRun, wheres: readonly Where[]): string[] {
  const lines = ['', '### What 50 % of the int8 bound asks of the arithmetic', '', 'A decode step of batch B does B × (the matrices\' parameters, the head included) int8 multiply-adds. At half the bound\'s steps/s that is the rate below; beside it, the rate attnkit int8 reached in this run\'s prefill at batch 4 (B · 128 rows through every matrix, the head for the last row only: the kernels\' largest, compute-bound products). Where the need is above that, the 50 % target asks for more int8 multiply-adds per second than attnkit\'s whole prefill reached on this machine (everything besides the products included, so the kernels alone do somewhat more): the step is bound by compute there, not by memory bandwidth.', '', '| where | model | batch | int8 multiply-adds per step | needed at 50 % of the bound | attnkit int8 prefill reached (batch 4) | bound by |', '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const where of wheres) {
    const spec = run.engines[where].find((e) => e.library === 'attnkit' && e.precision === 'int8');
    if (spec === undefined) continue;
    for (const [model, info] of Object.entries(run.models)) {
      const { matrices, head } = info.bytes.counts;
      const prefills = run.results.filter((r) => r.where === where && r.engine === spec.id && r.model === model && r.error === undefined).map((r) => rates(r, 4)?.prefill).filter((x): x is number => x !== undefined);
      const reached = prefills.length === 0 ? NaN : (median(prefills) * (matrices - head + head / PROMPT_LENGTH)) / 1e9; // GMAC/s: per prompt row every matrix but the head, the head once per sequence
      const boundSteps = (boundBandwidth(run, run.threads) * 1e9) / boundBytes(run, model, 'int8');
      for (const batch of run.batches) {
        const needed = (batch * matrices * 0.5 * boundSteps) / 1e9;
        const by = Number.isFinite(reached) ? (needed > reached ? 'compute (needs more than prefill reached)' : 'overheads and bandwidth (the arithmetic fits)') : '–';
        lines.push(`| ${where} | ${model} | ${batch} | ${f1((batch * matrices) / 1e6)} M | ${f1(needed)} GMAC/s | ${Number.isFinite(reached) ? `${f1(reached)} GMAC/s` : 'not measured'} | ${by} |`);
      }
    }
  }
  return lines;
}
