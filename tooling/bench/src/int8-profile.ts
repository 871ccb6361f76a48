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
import { fusedAttention, int8Kernels, int8MatMul, kernelThreads, startKernelThreads } from '@attnkit/kernels';
import { Int8Linear, Linear, linearResidualLayerNorm, linearThenActivation, quantizeLinearLayers } from '@attnkit/nn';
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

// 2. The steps of every layer, replayed (the same calls BertLayer.forward makes on wasm outside training).
type Step = 'q (quantizes x)' | 'k (x reused)' | 'v (x reused)' | 'split heads ×3 (transpose)' | 'fused attention' | 'merge heads (transpose)' | 'attention.output + residual LN' | 'intermediate + GELU' | 'output + residual LN' | 'embeddings' | 'tfjs upload of each output (in the above)';
const steps = new Map<Step, number[]>();
const record = (step: Step, ms: number, run: number) => { const list = steps.get(step) ?? []; list[run] = (list[run] ?? 0) + ms; steps.set(step, list); };
const split = (x: Tensor) => transpose(reshape(x, [batch, length, heads, headDim]), [0, 2, 1, 3]);
for (let run = 0; run < runs; run++) {
  tidy(() => {
    let hidden!: Tensor;
    const ids = tensor(inputs.inputIds, [batch, length], 'int32');
    record('embeddings', time(() => { hidden = model.embeddings.forward(ids, undefined); }), run);
    for (const layer of model.encoder.get('layer')) {
      const self = layer.attention.get('self');
      let q!: Tensor, k!: Tensor, v!: Tensor, qh!: Tensor, kh!: Tensor, vh!: Tensor, out!: Tensor, context!: Tensor, attended!: Tensor, intermediate!: Tensor;
      record('q (quantizes x)', time(() => { q = self.query.forward(hidden); }), run);
      record('k (x reused)', time(() => { k = self.key.forward(hidden); }), run);
      record('v (x reused)', time(() => { v = self.value.forward(hidden); }), run);
      record('split heads ×3 (transpose)', time(() => { [qh, kh, vh] = [split(q), split(k), split(v)]; }), run);
      record('fused attention', time(() => { out = fusedAttention(qh, kh, vh); }), run);
      record('merge heads (transpose)', time(() => { context = reshape(transpose(out, [0, 2, 1, 3]), [batch, length, width]); }), run);
      const output = layer.attention.get('output');
      record('attention.output + residual LN', time(() => { attended = linearResidualLayerNorm(output.dense, context, hidden, output.layerNorm, output.dropout); }), run);
      record('intermediate + GELU', time(() => { intermediate = linearThenActivation(layer.intermediate.get('dense'), attended, layer.activation); }), run);
      record('output + residual LN', time(() => { hidden = linearResidualLayerNorm(layer.output.dense, intermediate, attended, layer.output.layerNorm, layer.output.dropout); }), run);
    }
    hidden.dataSync();
  });
}

// 3. Inside one int8 product [B·T, E] × [E, E]: the activations' quantization (a fresh x against the same x
// again), the upload of the float output into tfjs (tensor() of a copy), the copy of x into the kernel's memory.
const rows = batch * length;
const x = tensor(Float32Array.from({ length: rows * width }, (_, i) => Math.sin(i * 0.37)), [rows, width]);
const x2 = x.clone();
const linear = model.encoder.get('layer').at(0).attention.get('self').key;
const weight = linear instanceof Int8Linear ? linear.weight : undefined;
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
  add('tfjs transpose [8,128,12,32] -> [8,12,128,32]', time(() => tidy(() => split(x).dataSync())));
}
x.dispose();
x2.dispose();

const total = [...steps.values()].reduce((s, list) => s + median(list), 0);
console.log(`\nwhole forward: ${whole.toFixed(1)} ms; the replayed steps add up to ${total.toFixed(1)} ms\n`);
console.log('| step (all 6 layers) | ms per forward | share |\n| --- | ---: | ---: |');
for (const [step, list] of [...steps].sort((a, b) => median(b[1]) - median(a[1]))) console.log(`| ${step} | ${median(list).toFixed(1)} | ${((100 * median(list)) / total).toFixed(1)} % |`);
console.log('\n| isolated cost | ms (median) |\n| --- | ---: |');
for (const [name, list] of micro) console.log(`| ${name} | ${median(list).toFixed(2)} |`);
if (linear instanceof Linear || linear instanceof Int8Linear) {
  const macs = rows * 12 * width * width * model.config.numHiddenLayers; // per row and layer: q, k, v, attention.output 4 E²; intermediate and output 2 · E · 4E
  console.log(`\nGEMM arithmetic per forward: ${(macs / 1e9).toFixed(2)} G multiply-adds`);
}
model.dispose();
