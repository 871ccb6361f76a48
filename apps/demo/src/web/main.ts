import { engine, tensor2d, tidy } from '@tensorflow/tfjs-core';
import { availableBackends, maxDifference, useBackend, type BackendCapabilities } from '@attnkit/backends';
import type { ModelSource } from '@attnkit/bert';
import { l2Normalize, loadSentenceEncoder, similarity, type SentenceEncoder } from '@attnkit/sentence';
import { drawHeatmap } from './heatmap.js';

/** What the page exposes for its end-to-end tests. */
interface DemoState {
  backend?: string;
  capabilities?: BackendCapabilities;
  embeddings?: number[][];
  compare?: Record<string, number>;
  runs: number;
  error?: string;
}
const state: DemoState = { runs: 0 };
(globalThis as { __attnkitDemo?: DemoState }).__attnkitDemo = state;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let model: SentenceEncoder | undefined;
let coldOn = new Set<string>(); // backends whose first forward (shader compilation on webgl) was measured

function showError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  state.error = message;
  $('error').hidden = false;
  $('error').textContent = message;
}

async function selectBackend(name: string): Promise<void> {
  state.capabilities = await useBackend(name);
  state.backend = name;
  const { backend, floatPrecision, missingKernels, filledKernels, wasm, webgl, webgpu } = state.capabilities;
  $('capabilities').textContent = [
    `${backend}: float${floatPrecision}`,
    wasm && `wasm: ${wasm.binary}, SIMD ${wasm.simd}, threads ${wasm.threadCount}${wasm.crossOriginIsolated ? ' (cross-origin isolated)' : ''}`,
    webgl && `WebGL ${webgl.version}, float32 render ${webgl.renderFloat32}, max texture ${webgl.maxTextureSize}, ${webgl.renderer}`,
    webgpu && `WebGPU adapter ${webgpu.vendor} / ${webgpu.architecture}`,
    `missing kernels: ${missingKernels.join(', ') || 'none'}; filled: ${filledKernels.join(', ') || 'none'}`,
  ].filter(Boolean).join('\n');
}

async function loadModel(source: ModelSource, label: string): Promise<void> {
  $<HTMLButtonElement>('run').disabled = true;
  $<HTMLButtonElement>('compare').disabled = true;
  const progress = $<HTMLProgressElement>('progress');
  const started = performance.now();
  let loaded: SentenceEncoder;
  try {
    loaded = await loadSentenceEncoder(source, { onProgress: (p) => { progress.max = p.total ?? p.loaded; progress.value = p.loaded; $('model-status').textContent = `loading ${p.file}…`; } });
  } finally {
    // a failed load keeps the model that was there: the page stays usable
    $<HTMLButtonElement>('run').disabled = model === undefined;
    $<HTMLButtonElement>('compare').disabled = model === undefined;
  }
  model?.dispose();
  model = loaded;
  coldOn = new Set();
  const { modelType, numHiddenLayers, numAttentionHeads, hiddenSize } = model.encoder.config;
  const pooling = model.pooling?.config.modes.join(' + ') ?? 'none';
  $('model-status').textContent = `${label}: ${modelType}, ${numHiddenLayers} layers, ${numAttentionHeads} heads, hidden ${hiddenSize}, ${pooling} pooling${model.folder.modules.length > 0 ? ` + ${model.folder.modules.map((m) => m.type).join(' + ')}` : ''} — loaded in ${(performance.now() - started).toFixed(0)} ms`;
  $<HTMLButtonElement>('run').disabled = false;
  $<HTMLButtonElement>('compare').disabled = false;
}

function sentences(): string[] {
  return $<HTMLTextAreaElement>('texts').value.split('\n').map((s) => s.trim()).filter((s) => s !== '');
}

/** One forward pass: embeddings, hidden states (for comparison) and attention maps of sentence 1. */
function encode(texts: string[]) {
  const batch = model!.tokenizer.encode(texts, { maxLength: model!.maxSeqLength });
  return tidy(() => {
    const out = model!.encoder.forward({ ...batch, outputAttentions: true });
    const embeddings = l2Normalize(model!.sentenceEmbeddings(out.lastHiddenState, tensor2d(batch.attentionMask, undefined, 'int32'))); // pooled as the folder says
    const length = batch.tokens[0]!.length;
    return {
      tokens: batch.tokens,
      hidden: out.lastHiddenState.dataSync() as Float32Array,
      embeddings: embeddings.arraySync() as number[][],
      similarity: similarity(embeddings, embeddings, 'cosine').arraySync() as number[][],
      attentions: out.attentions!.map((a) => (a.arraySync() as number[][][][])[0]!.map((head) => head.slice(0, length).map((row) => row.slice(0, length)))),
    } as never;
  }) as { tokens: string[][]; hidden: Float32Array; embeddings: number[][]; similarity: number[][]; attentions: number[][][][] };
}

async function run(): Promise<void> {
  const texts = sentences();
  if (texts.length === 0) throw new Error('Type at least one sentence.');
  const backend = engine().backendName;
  const cold = !coldOn.has(backend);
  const started = performance.now();
  const result = encode(texts);
  const first = performance.now() - started;
  coldOn.add(backend);
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    encode(texts);
    warm.push(performance.now() - t);
  }
  warm.sort((a, b) => a - b);
  $('timings').textContent = `${cold ? 'first forward (cold)' : 'forward'}: ${first.toFixed(0)} ms · warm median: ${warm[2]!.toFixed(1)} ms`;
  $('tokens').replaceChildren(...result.tokens.map((t) => Object.assign(document.createElement('li'), { textContent: t.join(' ') })));
  const names = texts.map((_, i) => `${i + 1}`);
  drawHeatmap($<HTMLCanvasElement>('similarity'), result.similarity, names, names, { min: Math.min(0, ...result.similarity.flat()), max: 1 });
  const labels = result.tokens[0]!;
  $('attention').replaceChildren(...result.attentions.map((layer, l) => {
    const row = Object.assign(document.createElement('div'), { className: 'layer' });
    row.append(...layer.map((head, h) => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 260, height: 230, title: `layer ${l + 1}, head ${h + 1}` });
      canvas.dataset['layer'] = `${l}`;
      drawHeatmap(canvas, head, labels, labels, { min: 0, max: 1 });
      return canvas;
    }));
    return row;
  }));
  state.embeddings = result.embeddings;
  state.runs += 1;
}

async function compare(): Promise<void> {
  const texts = sentences();
  const selected = state.backend ?? 'cpu';
  const hidden: Record<string, Float32Array> = {};
  for (const backend of await availableBackends()) {
    await useBackend(backend);
    hidden[backend] = encode(texts).hidden;
  }
  await selectBackend(selected);
  state.compare = Object.fromEntries(Object.entries(hidden).map(([b, h]) => [b, maxDifference(h, hidden['cpu']!).maxAbsDiff]));
  $('compare-table').replaceChildren(
    Object.assign(document.createElement('tr'), { innerHTML: '<th>backend</th><th>max abs diff vs cpu</th>' }),
    ...Object.entries(state.compare).map(([b, d]) => Object.assign(document.createElement('tr'), { innerHTML: `<td>${b}</td><td>${d.toExponential(2)}</td>` })),
  );
}

function guard(fn: () => Promise<void>): () => void {
  return () => { $('error').hidden = true; fn().catch(showError); };
}

async function start(): Promise<void> {
  const backends = await availableBackends();
  const select = $<HTMLSelectElement>('backend');
  select.replaceChildren(...backends.map((b) => Object.assign(document.createElement('option'), { value: b, textContent: b })));
  const wanted = new URLSearchParams(location.search).get('backend');
  select.value = wanted !== null && backends.includes(wanted as never) ? wanted : backends.includes('wasm') ? 'wasm' : backends[0]!;
  await selectBackend(select.value);
  select.addEventListener('change', guard(() => selectBackend(select.value)));
  $('load-url').addEventListener('click', guard(() => loadModel($<HTMLInputElement>('model-url').value, $<HTMLInputElement>('model-url').value)));
  $<HTMLInputElement>('model-dir').addEventListener('change', guard(async () => {
    const picked = Array.from($<HTMLInputElement>('model-dir').files ?? []);
    // paths inside the picked folder (1_Pooling/config.json, ...), without the folder's own name
    const files = Object.fromEntries(picked.map((f) => [f.webkitRelativePath.split('/').slice(1).join('/') || f.name, f]));
    await loadModel({ files }, picked[0]?.webkitRelativePath.split('/')[0] ?? 'folder');
  }));
  $('run').addEventListener('click', guard(run));
  $('compare').addEventListener('click', guard(compare));
  await loadModel($<HTMLInputElement>('model-url').value, 'attnkit-tiny-bert (embedded, untrained)');
}

start().catch(showError);
