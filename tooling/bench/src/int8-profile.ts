// Where the time of one int8 (or float32) BERT forward goes, op by op, on tfjs-wasm with the kernel threads:
// the MiniLM-shaped bench model (models/minilm-shaped), 8 × 128 tokens by default. Each layer's forward is
// replayed step by step with the model's own modules (the steps BertLayer.forward takes on wasm outside
// training), each step timed on its own (tfjs-wasm and the kernels are synchronous, so the wall clock of a
// step is its cost), then a few isolated costs inside an int8 product (activation quantization, the copies
// between tfjs and the kernels' memory, thread scaling).
//   packages/cli/node_modules/.bin/tsx --tsconfig tooling/bench/tsconfig.typecheck.json --conditions=@attnkit/source tooling/bench/src/int8-profile.ts [--threads 2] [--runs 5] [--float] [--batch 8] [--length 128]
//   relaxed SIMD (as Chromium runs it), Node 20: NODE_OPTIONS=--experimental-wasm-relaxed-simd before the same command.
import { existsSync } from 'node:fs';
import { env, reshape, tensor, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadBert, type BertModel } from '@attnkit/models';
import { fusedAttention, fusedAttentionTokens, fusedQkvAttention, int8Kernels, int8MatMul, kernelThreads, startKernelThreads } from '@attnkit/kernels';
import { Int8Linear, int8QkvFusable, int8QkvProjection, linearResidualLayerNorm, linearThenActivation, quantizeLinearLayers } from '@attnkit/nn';
import { modelDir } from './peer/paths.js';
import { median } from './peer/stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => { const i = args.indexOf(`--${name}`); return i < 0 ? fallback : Number(args[i + 1]); };
const [threads, runs, batch, length] = [option('threads', 2), option('runs', 5), option('batch', 8), option('length', 128)];
const float = args.includes('--float');
if (!existsSync(modelDir)) throw new Error(`${modelDir} is missing: run the peer bench once, or copy models/minilm-shaped from a checkout that has it`);

env().set('PROD', true);
await useBackend('wasm');
await startKernelThreads({ threads });
const model = (await loadBert(modelDir)) as BertModel;
if (!float) quantizeLinearLayers(model);
const inputs = { inputIds: Array.from({ length: batch }, (_, b) => Array.from({ length }, (_, i) => 1000 + ((i * 7 + b * 13) % 20000))) };
const { hiddenSize: width, numAttentionHeads: heads } = model.config;
const headDim = width / heads;
console.log(`${float ? 'float32' : 'int8'} forward, MiniLM-shaped [B, T] = [${batch}, ${length}], kernel threads ${JSON.stringify(kernelThreads())}, int8 kernels ${int8Kernels().supported.join(', ')}; Node ${process.version}; median of ${runs} runs`);

const time = (f: () => void) => { const start = performance.now(); f(); return performance.now() - start; };
const forward = () => { const out = model.forward(inputs); out.lastHiddenState.dataSync(); out.lastHiddenState.dispose(); out.poolerOutput?.dispose(); };
forward(); forward(); // warm: kernels compiled, weights packed and kept

// 1. The whole forward.
const whole = median(Array.from({ length: runs }, () => time(forward)));

// 2. The steps of every layer, replayed two ways, interleaved run by run (A, B, A, B ...): 'split heads', the calls
// BertLayer.forward made before the attention read token rows (q, k, v products, splitHeads' transposes, fusedAttention,
// mergeHeads), and 'token rows', the calls it makes now on wasm (int8: one q/k/v product and fusedQkvAttention; float32:
// the three products and fusedAttentionTokens). The rest of the layer is the same in both.
type Path = 'split heads' | 'token rows';
const steps = new Map<string, number[]>();
const record = (path: Path, step: string, ms: number, run: number) => { const name = `${path}: ${step}`; const list = steps.get(name) ?? []; list[run] = (list[run] ?? 0) + ms; steps.set(name, list); };
const split = (x: Tensor) => transpose(reshape(x, [batch, length, heads, headDim]), [0, 2, 1, 3]);
const replay = (path: Path, run: number) => tidy(() => {
  let hidden!: Tensor;
  const ids = tensor(inputs.inputIds, [batch, length], 'int32');
  const step = (name: string, f: () => void) => record(path, name, time(f), run);
  step('embeddings', () => { hidden = model.embeddings.forward(ids, undefined); });
  for (const layer of model.encoder.get('layer')) {
    const self = layer.attention.get('self');
    const [query, key, value] = [self.query, self.key, self.value];
    let context!: Tensor, attended!: Tensor, intermediate!: Tensor;
    if (path === 'split heads') {
      let q!: Tensor, k!: Tensor, v!: Tensor, qh!: Tensor, kh!: Tensor, vh!: Tensor, out!: Tensor;
      step(float ? 'q' : 'q (quantizes x)', () => { q = query.forward(hidden); });
      step(float ? 'k' : 'k (x reused)', () => { k = key.forward(hidden); });
      step(float ? 'v' : 'v (x reused)', () => { v = value.forward(hidden); });
      step('split heads ×3 (transposes)', () => { [qh, kh, vh] = [split(q), split(k), split(v)]; });
      step('fusedAttention', () => { out = fusedAttention(qh, kh, vh); });
      step('merge heads (transpose)', () => { context = reshape(transpose(out, [0, 2, 1, 3]), [batch, length, width]); });
    } else if (int8QkvFusable(query, key, value)) {
      let qkv!: Tensor;
      step('q, k, v as one int8 product', () => { qkv = int8QkvProjection(query as unknown as Int8Linear, key as unknown as Int8Linear, value as unknown as Int8Linear, hidden); });
      step('fusedQkvAttention', () => { context = fusedQkvAttention(qkv, heads); });
    } else {
      let q!: Tensor, k!: Tensor, v!: Tensor;
      step('q', () => { q = query.forward(hidden); });
      step('k', () => { k = key.forward(hidden); });
      step('v', () => { v = value.forward(hidden); });
      step('fusedAttentionTokens', () => { context = fusedAttentionTokens(q, k, v, heads); });
    }
    const output = layer.attention.get('output');
    step('attention.output + residual LN', () => { attended = linearResidualLayerNorm(output.dense, context, hidden, output.layerNorm, output.dropout); });
    step('intermediate + GELU', () => { intermediate = linearThenActivation(layer.intermediate.get('dense'), attended, layer.activation); });
    step('output + residual LN', () => { hidden = linearResidualLayerNorm(layer.output.dense, intermediate, attended, layer.output.layerNorm, layer.output.dropout); });
  }
  return hidden;
});
const totals: Record<Path, number[]> = { 'split heads': [], 'token rows': [] };
const ratios: number[] = [];
const outputs: Partial<Record<Path, Float32Array>> = {};
for (let run = 0; run < runs; run++) {
  for (const path of (run % 2 === 0 ? ['split heads', 'token rows'] : ['token rows', 'split heads']) as Path[]) {
    let out!: Tensor;
    totals[path].push(time(() => { out = replay(path, run); out.dataSync(); }));
    outputs[path] = out.dataSync() as Float32Array;
    out.dispose();
  }
  ratios.push((totals['token rows'][run] as number) / (totals['split heads'][run] as number));
}
const identical = outputs['split heads']!.every((x, i) => Object.is(x, outputs['token rows']![i]));

// 3. Inside one int8 product [B·T, E] × [E, E]: the activations' quantization (a fresh x against the same x
// again), the upload of the float output into tfjs (tensor() of a copy), the copy of x into the kernel's memory.
const rows = batch * length;
const x = tensor(Float32Array.from({ length: rows * width }, (_, i) => Math.sin(i * 0.37)), [rows, width]);
const x2 = x.clone();
const qkv = tensor(Float32Array.from({ length: rows * 3 * width }, (_, i) => Math.sin(i * 0.23)), [batch, length, 3 * width]);
const linear = model.encoder.get('layer').at(0).attention.get('self').key;
const weight = (linear as unknown) instanceof Int8Linear ? (linear as unknown as Int8Linear).weight : undefined;
const micro = new Map<string, number[]>();
const add = (name: string, ms: number) => micro.set(name, [...(micro.get(name) ?? []), ms]);
for (let run = 0; run < Math.max(runs, 5) * 4; run++) {
  if (weight !== undefined) {
    add('int8 [1024,384]x[384,384]: x quantized (fresh x)', time(() => int8MatMul(run % 2 ? x : x2, weight).dispose()));
    add('int8 [1024,384]x[384,384]: x reused (same x again)', time(() => int8MatMul(run % 2 ? x : x2, weight).dispose()));
  }
  const values = new Float32Array(rows * 4 * width);
  add('tfjs upload of [1024, 1536] float32 (tensor())', time(() => tensor(values, [rows, 4 * width]).dispose()));
  const into = new Float32Array(rows * width);
  add('copy of [1024, 384] float32 (TypedArray.set)', time(() => into.set(x.dataSync() as Float32Array)));
  add('tfjs transpose [8,128,12,32] -> [8,12,128,32]', time(() => tidy(() => { split(x).dataSync(); })));
  const parts = run % 3; // the three attentions of one layer's q, k, v, in rotating order
  for (const which of [0, 1, 2].map((i) => (i + parts) % 3)) {
    if (which === 0) add('attention: split heads ×3 + fusedAttention + merge heads', time(() => tidy(() => { reshape(transpose(fusedAttention(split(x), split(x2), split(x)), [0, 2, 1, 3]), [batch, length, width]).dataSync(); })));
    if (which === 1) add('attention: fusedAttentionTokens (three [B, T, E])', time(() => tidy(() => { fusedAttentionTokens(reshape(x, [batch, length, width]), reshape(x2, [batch, length, width]), reshape(x, [batch, length, width]), heads).dataSync(); })));
    if (which === 2) add('attention: fusedQkvAttention (one [B, T, 3E])', time(() => tidy(() => { fusedQkvAttention(qkv, heads).dataSync(); })));
  }
}
qkv.dispose();
x.dispose();
x2.dispose();

console.log(`\nwhole forward (model.forward, this commit): ${whole.toFixed(1)} ms`);
console.log(`replayed layers, interleaved: split heads ${median(totals['split heads']).toFixed(1)} ms, token rows ${median(totals['token rows']).toFixed(1)} ms; ratio token rows / split heads per run: median ${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(3)).join(' ')}); last hidden state bit-identical: ${identical}\n`);
for (const path of ['split heads', 'token rows'] as Path[]) {
  const mine = [...steps].filter(([name]) => name.startsWith(`${path}: `));
  const total = mine.reduce((sum, [, list]) => sum + median(list), 0);
  console.log(`| ${path}: step (all ${model.config.numHiddenLayers} layers) | ms per forward | share |\n| --- | ---: | ---: |`);
  for (const [name, list] of mine.sort((a, b) => median(b[1]) - median(a[1]))) console.log(`| ${name.slice(path.length + 2)} | ${median(list).toFixed(1)} | ${((100 * median(list)) / total).toFixed(1)} % |`);
  console.log(`| sum | ${total.toFixed(1)} | |\n`);
}
console.log('\n| isolated cost | ms (median) |\n| --- | ---: |');
for (const [name, list] of micro) console.log(`| ${name} | ${median(list).toFixed(2)} |`);
const macs = rows * 12 * width * width * model.config.numHiddenLayers; // per row and layer: q, k, v, attention.output 4 E²; intermediate and output 2 · E · 4E (MiniLM's I = 4E)
console.log(`\nGEMM arithmetic per forward: ${(macs / 1e9).toFixed(2)} G multiply-adds`);
model.dispose();
