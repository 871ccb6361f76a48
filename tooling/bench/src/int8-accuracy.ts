// int8 accuracy (issue 20): sentence-embedding cosine of the int8 model (quantizeLinearLayers) against the
// float64 references, per model and kernel, and where the error comes from, layer by layer.
//   packages/cli/node_modules/.bin/tsx --conditions=@attnkit/source tooling/bench/src/int8-accuracy.ts
//   NODE_OPTIONS=--experimental-wasm-relaxed-simd ... (Node 20) adds the relaxed-SIMD kernel (7-bit activations).
// Models: (a) the sentence fixtures (tooling/reference/fixtures/sentence.json, sentence-transformers float64),
// (b) the embedded demo model packages/models/assets/attnkit-tiny-bert (embedded-bert.json, mean-pooled here),
// (c) the bench's MiniLM-shaped model (models/minilm-shaped/peer-reference.json; scripts/make_bench_models.py).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { concat, keep, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadBert, type Encoder } from '@attnkit/models';
import { int8Kernels, type Int8KernelName } from '@attnkit/kernels';
import { Int8Linear, Linear, quantizeLinearLayers } from '@attnkit/nn';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { benchDir, modelDir, referenceFile, rootDir } from './peer/paths.js';
import { cosine, median } from './peer/stats.js';

interface Ids { readonly inputIds: number[][]; readonly attentionMask: number[][]; readonly tokenTypeIds?: number[][] }

/** Mean pooling over the mask of `[B, T, E]` values. */
function meanPool(hidden: ArrayLike<number>, mask: readonly (readonly number[])[], width: number): number[][] {
  const length = mask[0]!.length;
  return mask.map((row, b) => {
    const out = new Array<number>(width).fill(0);
    const count = row.reduce((x, y) => x + y, 0);
    row.forEach((m, t) => { if (m) for (let e = 0; e < width; e++) out[e]! += (hidden[(b * length + t) * width + e] as number) / count; });
    return out;
  });
}

const relativeError = (want: ArrayLike<number>, got: ArrayLike<number>) => {
  let d = 0, n = 0;
  for (let i = 0; i < want.length; i++) { d += ((want[i] as number) - (got[i] as number)) ** 2; n += (want[i] as number) ** 2; }
  return Math.sqrt(d / n);
};

/** Every Linear's input on one forward of the float `encoder` (the real activations), by path. */
function linearInputs(encoder: Encoder, ids: Ids): Map<string, Tensor> {
  const inputs = new Map<string, Tensor[]>();
  const linears = encoder.namedModules().filter((e): e is [string, Linear] => e[1] instanceof Linear);
  for (const [path, linear] of linears) {
    const forward = linear.forward.bind(linear);
    Object.assign(linear, { forward: (x: Tensor) => { inputs.set(path, [...(inputs.get(path) ?? []), keep(x.clone())]); return forward(x); } }); // forward runs inside tidy: the copy is kept, and disposed by perLayerErrors
  }
  const out = encoder.forward(ids);
  Object.values(out).flat().forEach((t) => (t as Tensor).dispose());
  for (const [, linear] of linears) delete (linear as { forward?: unknown }).forward; // back to the prototype's
  return new Map([...inputs].map(([path, xs]) => [path, xs.length === 1 ? xs[0]! : tidy(() => concat(xs.map((x) => reshape(x, [-1, x.shape.at(-1)!])), 0))]));
}

/** Relative error of each Linear's output (int8 vs float, on the float model's own inputs), and the inputs' peak / RMS. */
function perLayerErrors(encoder: Encoder, ids: Ids, kernel: Int8KernelName): Array<{ path: string; error: number; peak: number }> {
  const inputs = linearInputs(encoder, ids);
  const rows: Array<{ path: string; error: number; peak: number }> = [];
  for (const [path, x] of inputs) {
    const linear = encoder.namedModules().find(([p]) => p === path)![1] as Linear;
    const int8 = Int8Linear.fromLinear(linear, { kernel });
    const [want, got] = [linear.forward(x), int8.forward(x)];
    const values = x.dataSync();
    const width = x.shape.at(-1)!;
    let peak = 0;
    for (let r = 0; r < values.length / width; r++) {
      let max = 0, sq = 0;
      for (let e = 0; e < width; e++) { const v = values[r * width + e]!; max = Math.max(max, Math.abs(v)); sq += v * v; }
      peak = Math.max(peak, max / Math.sqrt(sq / width || 1));
    }
    rows.push({ path, error: relativeError(want.dataSync(), got.dataSync()), peak });
    [x, want, got].forEach((t) => t.dispose());
    int8.dispose();
  }
  return rows;
}

/** Each layer's hidden state of the int8 model against the float model's: relative error (the drift that accumulates). */
function hiddenDrift(float: Encoder, int8: Encoder, ids: Ids): number[] {
  const [a, b] = [float.forward({ ...ids, outputHiddenStates: true }), int8.forward({ ...ids, outputHiddenStates: true })];
  const drift = a.hiddenStates!.map((h, i) => relativeError(h.dataSync(), b.hiddenStates![i]!.dataSync()));
  for (const out of [a, b]) { out.hiddenStates!.forEach((t) => t.dispose()); out.poolerOutput?.dispose(); }
  return drift;
}

/** Layer kinds, layer indices folded: `encoder.layer.N.attention.self.query` → `attention.self.query`. */
function byKind(rows: Array<{ path: string; error: number; peak: number }>): string[] {
  const kinds = new Map<string, Array<{ error: number; peak: number }>>();
  for (const r of rows) {
    const kind = r.path.replace(/^.*?layer\.\d+\./, '');
    kinds.set(kind, [...(kinds.get(kind) ?? []), r]);
  }
  return [...kinds].map(([kind, list]) => `${kind}: ${list.map((r) => `${(100 * r.error).toFixed(1)}%`).join(' ')} (input peak/RMS ≤ ${Math.max(...list.map((r) => r.peak)).toFixed(0)})`);
}

const stats = (cosines: number[]) => `min ${Math.min(...cosines).toFixed(6)}, median ${median(cosines).toFixed(6)} (n = ${cosines.length}, ${cosines.filter((c) => c >= 0.999).length} ≥ 0.999)`;

await useBackend('wasm');
const kernels = (['relaxed-simd', 'simd'] as const).filter((k) => int8Kernels().supported.includes(k));
console.log(`int8 kernels here: ${int8Kernels().supported.join(', ')}; measuring ${kernels.join(', ')}`);
const fixtures = join(rootDir, 'tooling', 'reference', 'fixtures');

for (const kernel of kernels) {
  console.log(`\n## kernel ${kernel}`);
  // (a) the sentence fixtures: SentenceEncoder.encode (batch 2) against sentence-transformers' float64 embeddings
  const all: number[] = [];
  const perFolder: string[] = [];
  const sentence = JSON.parse(readFileSync(join(fixtures, 'sentence.json'), 'utf8')) as Record<string, { folder: string; texts: string[]; cases: Array<{ embeddings: number[][] }> }>;
  for (const [name, fixture] of Object.entries(sentence)) {
    const model = await loadSentenceEncoder(join(fixtures, fixture.folder));
    quantizeLinearLayers(model.encoder, { kernel });
    const embeddings = await model.encode(fixture.texts, { batchSize: 2 });
    const rows = (await embeddings.array()) as number[][];
    const cosines = rows.map((row, i) => cosine(row, fixture.cases[0]!.embeddings[i]!));
    all.push(...cosines);
    perFolder.push(`${name} ${Math.min(...cosines).toFixed(4)}`);
    embeddings.dispose();
    model.dispose();
  }
  console.log(`(a) sentence fixtures (17 folders × 8 texts, hidden 32, 2 layers): ${stats(all)}`);
  console.log(`    min per folder: ${perFolder.join(', ')}`);

  // (b) and (c): encoder forward on the reference's own ids, mean pooling, cosine against the float64 reference
  const embedded = JSON.parse(readFileSync(join(fixtures, 'embedded-bert.json'), 'utf8')) as { cases: Record<string, { inputs: Record<string, { data: number[]; shape: number[] }>; outputs: Record<string, { data: number[]; shape: number[] }> }> };
  const rowsOf = (s: { data: number[]; shape: number[] }) => Array.from({ length: s.shape[0]! }, (_, b) => s.data.slice(b * s.shape[1]!, (b + 1) * s.shape[1]!));
  const models: Array<[string, string, Array<{ ids: Ids; reference: number[][] }>]> = [
    ['(b) attnkit-tiny-bert (embedded-bert.json, 3 sequences, hidden 64)', join(rootDir, 'packages', 'models', 'assets', 'attnkit-tiny-bert'), Object.values(embedded.cases).map((c) => {
      const mask = rowsOf(c.inputs['attention_mask']!);
      const out = c.outputs['last_hidden_state']!;
      return { ids: { inputIds: rowsOf(c.inputs['input_ids']!), attentionMask: mask, tokenTypeIds: rowsOf(c.inputs['token_type_ids']!) }, reference: meanPool(out.data, mask, out.shape[2]!) };
    })],
  ];
  if (existsSync(referenceFile)) {
    const peer = JSON.parse(readFileSync(referenceFile, 'utf8')) as { inputIds: number[][]; embeddings: number[][] };
    models.push(['(c) MiniLM-shaped bench model (peer-reference.json, 8 texts × 128 tokens, 6 layers × 384)', modelDir, peer.inputIds.map((ids, i) => ({ ids: { inputIds: [ids], attentionMask: [ids.map(() => 1)] }, reference: [peer.embeddings[i]!] }))]);
  } else console.log(`(c) skipped: ${referenceFile} is missing (tooling/bench/scripts/make_bench_models.py writes it; ${benchDir})`);
  for (const [label, folder, cases] of models) {
    const float = await loadBert(folder);
    const int8 = await loadBert(folder);
    quantizeLinearLayers(int8, { kernel });
    const cosines: number[] = [];
    const floatCosines: number[] = [];
    for (const { ids, reference } of cases) {
      for (const [model, into] of [[int8, cosines], [float, floatCosines]] as const) {
        const out = model.forward(ids);
        meanPool(out.lastHiddenState.dataSync(), ids.attentionMask, model.config.hiddenSize).forEach((row, i) => into.push(cosine(row, reference[i]!)));
        out.lastHiddenState.dispose();
        out.poolerOutput?.dispose();
      }
    }
    console.log(`${label}: int8 ${stats(cosines)}; float32 min ${Math.min(...floatCosines).toFixed(8)}`);
    const first = cases[0]!.ids;
    console.log(`    per-Linear relative error on float activations (${first.inputIds[0]!.length} tokens), by layer:\n      ${byKind(perLayerErrors(float, first, kernel)).join('\n      ')}`);
    console.log(`    hidden-state drift int8 vs float (embeddings, then each layer): ${hiddenDrift(float, int8, first).map((d) => `${(100 * d).toFixed(2)}%`).join(' ')}`);
    float.dispose();
    int8.dispose();
  }
}
