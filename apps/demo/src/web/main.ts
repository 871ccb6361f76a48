import { engine, memory, tensor2d, tidy } from '@tensorflow/tfjs-core';
import { availableBackends, maxDifference, useBackend } from '@attnkit/backends';
import { cachedFetch, MODEL_CACHE_NAME, type LoadProgress, type ModelSource } from '@attnkit/hub';
import { l2Normalize, loadSentenceEncoder, similarity, type SentenceEncoder, isDecoderModel } from '@attnkit/sentence';
import type { DemoState, Truncation } from './demo-state.js';
import { describeSimilarity } from './describe-similarity.js';
import { fileProgress } from './file-progress.js';
import { fineTunePanel } from './fine-tune-panel.js';
import { generationPanel } from './generation-panel.js';
import { drawHeatmap } from './heatmap.js';
import { heatmapTooltip } from './heatmap-tooltip.js';
import { DEFAULT_HUB, modelAddress } from './model-address.js';
import { searchPanel } from './search-panel.js';

const state: DemoState = { runs: 0, fineTunes: 0, searches: 0, generations: 0, actions: 0, stale: false, progress: {} };
(globalThis as { __attnkitDemo?: DemoState }).__attnkitDemo = state;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const EMBEDDED = '/models/attnkit-tiny-bert/';
const hub = new URLSearchParams(location.search).get('hub') ?? DEFAULT_HUB;
const files = fileProgress($<HTMLUListElement>('files'));
const showValues = heatmapTooltip($('tooltip'));
let model: SentenceEncoder | undefined;
let modelLabel = '';
let coldOn = new Set<string>(); // backends whose first forward (shader compilation on webgl) was measured
const panel = fineTunePanel(
  {
    pairs: $('pairs'), steps: $('steps'), learningRate: $('learning-rate'), start: $('fine-tune'), stop: $('stop'), status: $('fine-tune-status'),
    lossCurve: $('loss-curve'), before: $('similarity-before'), after: $('similarity-after'),
  },
  { similarity: (texts) => encode(texts).similarity, showValues },
);
const search = searchPanel({ corpus: $('corpus'), query: $('query'), topK: $('top-k'), status: $('search-status'), hits: $('search-hits') });
const generation = generationPanel({
  status: $('lm-status'), prompt: $('prompt'), maxNewTokens: $('max-new-tokens'), temperature: $('temperature'), seed: $('seed'),
  start: $('generate'), stop: $('stop-generation'), output: $('generation-output'), speed: $('generation-speed'),
});

/** Shows an action's error as text: in the page's error line, or the panel's (`where`: its id). */
function showError(error: unknown, where: string): void {
  const message = error instanceof Error ? error.message : String(error);
  state.error = message;
  $(where).hidden = false;
  $(where).textContent = message;
}

/** The inputs changed: the results on the page are for earlier ones until the next run; the agreement table goes. */
function markStale(): void {
  if (state.runs === 0 || state.stale) return;
  state.stale = true;
  $('results').classList.add('stale');
  $('stale-note').hidden = false;
  $('compare-table').replaceChildren();
  delete state.compare;
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

/** The buttons that use the model: usable once one is loaded. */
function enableModelButtons(enabled: boolean): void {
  for (const id of ['run', 'compare', 'fine-tune', 'search']) $<HTMLButtonElement>(id).disabled = !enabled;
}

/** Loads a model; the one there stays (and works) until the new one has loaded, then it is disposed. Encodes the sentences with it. */
async function loadModel(source: ModelSource, label: string, options: { cache?: boolean } = {}): Promise<void> {
  enableModelButtons(false);
  files.clear();
  state.progress = {};
  $('model-status').textContent = `loading ${label}…`;
  const onProgress = (p: LoadProgress) => {
    files.update(p);
    const seen = state.progress[p.file];
    state.progress[p.file] = { events: (seen?.events ?? 0) + 1, loaded: p.loaded, total: p.total };
  };
  const started = performance.now();
  let loaded: SentenceEncoder;
  try {
    loaded = await loadSentenceEncoder(source, { onProgress, ...(options.cache === true ? { fetch: cachedFetch() } : {}) });
  } catch (error) {
    if (model !== undefined) $('model-status').textContent = `${label} did not load; still using ${modelLabel}.`;
    throw error;
  } finally {
    enableModelButtons(model !== undefined);
  }
  const loadMs = performance.now() - started;
  search.reset(); // the corpus embeddings were the old model's
  model?.dispose();
  model = loaded;
  modelLabel = label;
  coldOn = new Set();
  state.model = { label, loadMs, ...(typeof source === 'string' ? { url: source } : {}) };
  const { modelType, numHiddenLayers, numAttentionHeads, hiddenSize } = model.encoder.config;
  const pooling = model.pooling?.config.modes.join(' + ') ?? 'none';
  $('model-status').textContent = `${label}: ${modelType}, ${numHiddenLayers} layers, ${numAttentionHeads} heads, hidden ${hiddenSize}, at most ${model.maxSeqLength} tokens, ${pooling} pooling${model.folder.modules.length > 0 ? ` + ${model.folder.modules.map((m) => m.type).join(' + ')}` : ''} — loaded in ${loadMs.toFixed(0)} ms`;
  enableModelButtons(true);
  markStale();
  if (sentences().length > 0) await run();
}

function sentences(): string[] {
  return $<HTMLTextAreaElement>('texts').value.split('\n').map((s) => s.trim()).filter((s) => s !== '');
}

/** One forward pass: embeddings, hidden states (for comparison) and attention maps of sentence 1. */
function encode(texts: string[]) {
  const batch = model!.tokenizer.encode(texts, { maxLength: model!.maxSeqLength });
  const encoder = model!.encoder;
  if (isDecoderModel(encoder)) throw new Error('This page shows encoder models; the folder holds a decoder embedding model.');
  return tidy(() => {
    const out = encoder.forward({ ...batch, outputAttentions: true });
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

/** The sentences the model reads only in part: their tokens kept (the model's maximum) of all. */
function truncations(texts: string[], kept: string[][]): Truncation[] {
  return texts.flatMap((text, i) => {
    const total = model!.tokenizer.encode([text], { truncation: false }).tokens[0]!.length;
    return total > kept[i]!.length ? [{ sentence: i + 1, kept: kept[i]!.length, total }] : [];
  });
}

function tokenList(tokens: string[][], truncated: Truncation[]): HTMLLIElement[] {
  return tokens.map((t, i) => {
    const item = document.createElement('li');
    const cut = truncated.find((c) => c.sentence === i + 1);
    if (cut !== undefined) item.append(Object.assign(document.createElement('mark'), { className: 'truncated', textContent: `truncated to ${cut.kept} of ${cut.total} tokens` }), ' ');
    item.append(t.join(' '));
    return item;
  });
}

function drawResults(texts: string[], result: ReturnType<typeof encode>, truncated: Truncation[]): void {
  $('tokens').replaceChildren(...tokenList(result.tokens, truncated));
  const names = texts.map((_, i) => `${i + 1}`);
  const canvas = $<HTMLCanvasElement>('similarity');
  const layout = drawHeatmap(canvas, result.similarity, names, names, { min: Math.min(0, ...result.similarity.flat()), max: 1 });
  showValues(canvas, { matrix: result.similarity, layout, describe: describeSimilarity(texts) });
  const labels = result.tokens[0]!;
  $('attention').replaceChildren(...result.attentions.map((layer, l) => {
    const row = Object.assign(document.createElement('div'), { className: 'layer' });
    row.append(...layer.map((head, h) => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 260, height: 230 });
      Object.assign(canvas.dataset, { layer: `${l}`, head: `${h}` });
      canvas.setAttribute('aria-label', `attention of layer ${l + 1}, head ${h + 1}`);
      const layout = drawHeatmap(canvas, head, labels, labels, { min: 0, max: 1 });
      showValues(canvas, { matrix: head, layout, describe: (i, j, v) => `layer ${l + 1}, head ${h + 1}: “${labels[i]}” (token ${i + 1}) attends to “${labels[j]}” (token ${j + 1}): ${v.toFixed(4)}` });
      return canvas;
    }));
    return row;
  }));
  state.firstHeatmapMs ??= performance.now();
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
  const truncated = truncations(texts, result.tokens);
  drawResults(texts, result, truncated);
  Object.assign(state, { tokens: result.tokens, embeddings: result.embeddings, similarity: result.similarity, attentions: result.attentions, truncated, stale: false });
  $('results').classList.remove('stale');
  $('stale-note').hidden = true;
  await new Promise((resolve) => setTimeout(resolve, 0)); // let the heatmaps show before the warm timings
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    encode(texts);
    warm.push(performance.now() - t);
  }
  warm.sort((a, b) => a - b);
  $('timings').textContent = `${cold ? 'first forward (cold)' : 'forward'}: ${first.toFixed(0)} ms · warm median: ${warm[2]!.toFixed(1)} ms`;
  state.runs += 1;
}

async function compare(): Promise<void> {
  const texts = sentences();
  if (texts.length === 0) throw new Error('Type at least one sentence.');
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

/** Fine-tunes the model on the panel's pairs (see fineTunePanel), then embeds the sentences with it. */
async function fineTune(): Promise<void> {
  if (model === undefined) throw new Error('Load a model first.');
  await panel.fineTune(model, sentences(), (run) => (state.fineTune = run));
  search.reset(); // the weights changed: the corpus is embedded again at the next search
  await run();
  state.fineTunes += 1;
}

/** Loads what the model box says: a Hugging Face id or a URL; files from other sites are kept in this browser's cache. */
async function loadTyped(): Promise<void> {
  const typed = $<HTMLInputElement>('model-url').value;
  const url = modelAddress(typed, hub);
  const remote = new URL(url, location.href).origin !== location.origin;
  await loadModel(url, typed.trim(), { cache: remote });
}

/** Searches the search panel's corpus for its query with the page's sentence encoder (see searchPanel). */
async function searchCorpus(): Promise<void> {
  if (model === undefined) throw new Error('Load a model first.');
  state.search = await search.search(model);
  state.searches += 1;
}

/** Loads the causal LM the generation panel's box names: a folder URL or a Hugging Face id (kept in this browser's cache when from another site). */
async function loadLM(): Promise<void> {
  const typed = $<HTMLInputElement>('lm-url').value;
  const url = modelAddress(typed, hub);
  const remote = new URL(url, location.href).origin !== location.origin;
  state.causalLM = await generation.load(url, typed.trim(), remote ? { fetch: cachedFetch() } : {});
}

/** Generates with the panel's causal LM (loading the one its box names first, if none is loaded). */
async function generate(): Promise<void> {
  if (generation.loaded() === undefined) await loadLM();
  await generation.generate((run) => (state.generation = run));
  const loaded = generation.loaded();
  if (loaded !== undefined) state.causalLM = loaded; // loaded again when the backend changed
  state.generations += 1;
}

async function forgetDownloads(): Promise<void> {
  const removed = await caches.delete(MODEL_CACHE_NAME);
  $('model-status').textContent = removed ? 'Downloaded models forgotten: the next load downloads them again.' : 'No downloaded models were kept.';
}

/** Actions run one after another (a click while a model loads waits for it); a failure shows, the page stays usable. */
let queue = Promise.resolve();
function guard(fn: () => Promise<void>, where = 'error'): () => void {
  return () => {
    queue = queue.then(async () => {
      for (const line of document.querySelectorAll<HTMLElement>('.error')) line.hidden = true;
      delete state.error; // an error stands for the action that failed, until the next one
      try {
        await fn();
      } catch (error) {
        showError(error, where);
      } finally {
        state.numTensors = memory().numTensors;
        state.actions += 1;
      }
    });
  };
}

async function start(): Promise<void> {
  const backends = await availableBackends();
  const select = $<HTMLSelectElement>('backend');
  select.replaceChildren(...backends.map((b) => Object.assign(document.createElement('option'), { value: b, textContent: b })));
  const wanted = new URLSearchParams(location.search).get('backend');
  select.value = wanted !== null && backends.includes(wanted as never) ? wanted : backends.includes('wasm') ? 'wasm' : backends[0]!;
  await selectBackend(select.value);
  select.addEventListener('change', () => markStale());
  select.addEventListener('change', guard(async () => {
    await selectBackend(select.value);
    if (model !== undefined && sentences().length > 0) await run();
  }));
  $('texts').addEventListener('input', () => markStale());
  $('load-url').addEventListener('click', guard(loadTyped));
  $('model-url').addEventListener('keydown', (event) => void (event.key === 'Enter' && $('load-url').click()));
  $<HTMLInputElement>('model-dir').addEventListener('change', guard(async () => {
    const picked = Array.from($<HTMLInputElement>('model-dir').files ?? []);
    // paths inside the picked folder (1_Pooling/config.json, ...), without the folder's own name
    const files = Object.fromEntries(picked.map((f) => [f.webkitRelativePath.split('/').slice(1).join('/') || f.name, f]));
    await loadModel({ files }, picked[0]?.webkitRelativePath.split('/')[0] ?? 'folder');
  }));
  $('run').addEventListener('click', guard(run));
  $('compare').addEventListener('click', guard(compare));
  $('fine-tune').addEventListener('click', guard(fineTune));
  $('stop').addEventListener('click', () => panel.stop()); // not queued: it ends the run the queue is waiting on
  $('search').addEventListener('click', guard(searchCorpus, 'search-error'));
  $('query').addEventListener('keydown', (event) => void (event.key === 'Enter' && $('search').click()));
  $('load-lm').addEventListener('click', guard(loadLM, 'generation-error'));
  $('lm-url').addEventListener('keydown', (event) => void (event.key === 'Enter' && $('load-lm').click()));
  $('generate').addEventListener('click', guard(generate, 'generation-error'));
  $('stop-generation').addEventListener('click', () => generation.stop()); // not queued: it ends the generation the queue is waiting on
  $('forget').hidden = typeof caches === 'undefined';
  $('forget').addEventListener('click', guard(forgetDownloads));
  await loadModel(EMBEDDED, 'attnkit-tiny-bert (embedded, trained on WordNet)');
}

guard(start)();
