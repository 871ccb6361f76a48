import { zeros, type Tensor } from '@tensorflow/tfjs-core';
import { loadCrossEncoder, loadSentenceEncoder, semanticSearch, type CrossEncoder, type SentenceEncoder } from '@attnkit/sentence';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

const SENTENCE = repoPath('tooling/reference/fixtures/sentence/bert-cls/'); // a tiny BERT with CLS pooling
const CROSS = repoPath('tooling/reference/fixtures/rerank/cross-encoders/bert/');
const LOAD_KEYS = ['onProgress', 'onNotice', 'signal', 'backend', 'checkFinite', 'fetch', 'hub', 'quantize'];
const NO_HUB = 'no Hub options: the HF_* variables and defaults';
const LEFT_OUT = 'a null option is left out: its default (documented, as None in sentence-transformers)';
const PROMPT = 'a prompt string ("x" is a prompt)';
const nulls = (...keys: string[]) => Object.fromEntries(keys.map((k) => [`${k}:null`, LEFT_OUT]));
const SEED = 'any integer seed is a seed (as torch.manual_seed takes negative ones)';

/** Disposes what a call gave back: a tensor, a list of them, or quantized embeddings. */
function release(value: unknown): void {
  if (Array.isArray(value)) value.forEach(release);
  else (value as { dispose?: () => void } | null)?.dispose?.();
}
/** Loads a model for one case (no tensor outlives it), awaits `use`, frees what it returned and the model. */
async function withModel<M extends { dispose(): void }>(load: () => Promise<M>, use: (model: M) => unknown): Promise<void> {
  const model = await load();
  try { release(await use(model)); } finally { model.dispose(); }
}
const sentence = () => loadSentenceEncoder(SENTENCE);
const cross = () => loadCrossEncoder(CROSS);

/** The sentence package's loaders, encoders and tensor calls (async: read with data()), every position and option key; Node only (the Chromium catalogue keeps to the tensor blocks' packages). */
const SEARCH_CALLS: readonly ValidCall[] = [
  { name: 'sentence.semanticSearch', args: () => [zeros([2, 4]), zeros([5, 4]), { topK: 2 }], call: ([q, c, o]) => semanticSearch(q as Tensor, c as Tensor, o as never), optional: [2],
    options: { index: 2, keys: ['topK', 'scoreFunction', 'queryChunkSize', 'corpusChunkSize'] } },
];
/** The loaders and the models' calls (a model loaded per case), run on cpu only. */
const MODEL_CALLS: readonly ValidCall[] = [
  { name: 'sentence.loadSentenceEncoder', args: () => [SENTENCE, {}], call: ([s, o]) => withModel(() => loadSentenceEncoder(s as never, o as never), () => undefined), optional: [1],
    options: { index: 1, keys: LOAD_KEYS }, accepted: { 'hub:{}': NO_HUB } },
  { name: 'sentence.SentenceEncoder.encode', args: () => [['a cat', 'a dog'], { batchSize: 1 }], call: ([t, o]) => withModel(sentence, (m: SentenceEncoder) => m.encode(t as never, o as never)), optional: [1],
    options: { index: 1, keys: ['batchSize', 'promptName', 'prompt', 'normalize', 'truncateDim', 'precision', 'ranges', 'outputValue', 'onProgress', 'signal'] },
    accepted: { ...nulls('batchSize', 'promptName', 'prompt', 'normalize', 'truncateDim', 'precision', 'ranges', 'outputValue', 'onProgress', 'signal'), 'prompt:"x"': PROMPT } },
  { name: 'sentence.SentenceEncoder.similarity', args: () => [zeros([2, 32]), zeros([3, 32])], call: ([a, b]) => withModel(sentence, (m: SentenceEncoder) => m.similarity(a as Tensor, b as Tensor)) },
  { name: 'sentence.loadCrossEncoder', args: () => [CROSS, {}], call: ([s, o]) => withModel(() => loadCrossEncoder(s as never, o as never), () => undefined), optional: [1],
    options: { index: 1, keys: [...LOAD_KEYS, 'newHead', 'seed'] }, accepted: { 'hub:{}': NO_HUB, 'seed:-1': SEED } },
  { name: 'sentence.CrossEncoder.predict', args: () => [[['a cat', 'a dog']], { batchSize: 1 }], call: ([p, o]) => withModel(cross, (m: CrossEncoder) => m.predict(p as never, o as never)), optional: [1],
    options: { index: 1, keys: ['batchSize', 'activation', 'applySoftmax', 'promptName', 'prompt', 'signal'] }, accepted: { ...nulls('batchSize', 'activation', 'applySoftmax', 'promptName', 'prompt', 'signal'), 'prompt:"x"': PROMPT } },
  { name: 'sentence.CrossEncoder.rank', args: () => ['a cat', ['a dog', 'a car'], { topK: 1 }], call: ([q, d, o]) => withModel(cross, (m: CrossEncoder) => m.rank(q as never, d as never, o as never)), optional: [2],
    options: { index: 2, keys: ['topK', 'returnDocuments', 'batchSize', 'activation', 'applySoftmax', 'promptName', 'prompt', 'signal'] }, accepted: { '0:"x"': 'a query text ("x" is a text)', ...nulls('topK', 'returnDocuments', 'batchSize', 'activation', 'applySoftmax', 'promptName', 'prompt', 'signal'), 'prompt:"x"': PROMPT } },
];

/** `semanticSearch` given each hostile value at each argument and option key, the others valid (run on cpu and wasm). */
export const sentencePositionsCases: CatalogueCase[] = SEARCH_CALLS.flatMap(variants);
/** The sentence loaders, encoders and cross-encoders given each hostile value at each argument and option key, the others valid. */
export const sentenceModelPositionsCases: CatalogueCase[] = MODEL_CALLS.flatMap(variants);
