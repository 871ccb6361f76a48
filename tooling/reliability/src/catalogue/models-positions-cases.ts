import { tidy } from '@tensorflow/tfjs-core';
import { loadCausalLM, loadEncoder, loadSequenceClassifier, type CausalLM, type Encoder, type SequenceClassifier } from '@attnkit/models';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

const BERT = repoPath('tooling/reference/fixtures/families/bert/'); // tiny BERT encoder
const QWEN2 = repoPath('tooling/reference/fixtures/decoders/qwen2/'); // vocab 320, 64 positions, 2 layers
const CLASSIFIER = repoPath('tooling/reference/fixtures/rerank/classifiers/bert/');
const LOAD_KEYS = ['onProgress', 'onNotice', 'signal', 'checkFinite', 'backend', 'fetch', 'hub', 'quantize'];
const SEED = 'any integer seed is a seed (as torch.manual_seed takes negative ones)';
const NO_HUB = 'no Hub options: the HF_* variables and defaults';

/** Loads a model for one case (each case gets its own: no tensor outlives it), runs `use`, disposes the model. */
async function withModel<M extends { dispose(): void; readonly isDisposed?: boolean }>(load: () => Promise<M>, use: (model: M) => unknown): Promise<unknown> {
  const model = await load();
  try {
    const result = await use(model);
    return result === undefined ? undefined : 'used';
  } finally {
    if (model.isDisposed !== true) model.dispose();
  }
}
/** A loader's result, disposed at once. */
async function loaded(model: Promise<{ dispose(): void }>): Promise<void> {
  (await model).dispose();
}
const causalLM = () => loadCausalLM(QWEN2);

const VALID_CALLS: readonly ValidCall[] = [
  { name: 'models.loadEncoder', args: () => [BERT, {}], call: ([s, o]) => loaded(loadEncoder(s as never, o as never)), optional: [1], options: { index: 1, keys: LOAD_KEYS }, accepted: { 'hub:{}': NO_HUB } },
  { name: 'models.loadCausalLM', args: () => [QWEN2, {}], call: ([s, o]) => loaded(loadCausalLM(s as never, o as never)), optional: [1], options: { index: 1, keys: LOAD_KEYS }, accepted: { 'hub:{}': NO_HUB } },
  { name: 'models.loadSequenceClassifier', args: () => [CLASSIFIER, {}], call: ([s, o]) => loaded(loadSequenceClassifier(s as never, o as never)), optional: [1],
    options: { index: 1, keys: [...LOAD_KEYS, 'newHead', 'seed'] }, accepted: { 'hub:{}': NO_HUB, 'seed:-1': SEED } },
  { name: 'models.Encoder.forward', args: () => [{ inputIds: [[2, 5, 3]], attentionMask: [[1, 1, 1]] }], call: ([i]) => withModel(() => loadEncoder(BERT), (m: Encoder) => tidy(() => { m.forward(i as never); })),
    options: { index: 0, keys: ['inputIds', 'attentionMask', 'tokenTypeIds', 'outputAttentions', 'outputHiddenStates'] } },
  { name: 'models.SequenceClassifier.forward', args: () => [{ inputIds: [[2, 5, 3]] }], call: ([i]) => withModel(() => loadSequenceClassifier(CLASSIFIER), (m: SequenceClassifier) => tidy(() => { m.forward(i as never); })),
    options: { index: 0, keys: ['inputIds', 'attentionMask', 'tokenTypeIds', 'outputAttentions', 'outputHiddenStates'] } },
  { name: 'models.CausalLM.forward', args: () => [{ inputIds: [[1, 2, 3]] }], call: ([i]) => withModel(causalLM, (m: CausalLM) => tidy(() => { m.forward(i as never); })),
    options: { index: 0, keys: ['inputIds', 'attentionMask', 'positionIds', 'pastKeyValues', 'useCache', 'logitsToKeep'] } },
  { name: 'models.CausalLM.createCache', args: () => [{ maxLength: 8 }], call: ([o]) => withModel(causalLM, (m: CausalLM) => m.createCache(o as never).dispose()), optional: [0], options: { index: 0, keys: ['maxLength'] } },
  { name: 'models.CausalLM.generate', args: () => [[1, 2], { maxNewTokens: 2, doSample: true, seed: 1 }], call: ([i, o]) => withModel(causalLM, (m: CausalLM) => m.generate(i as never, o as never)), optional: [1],
    options: { index: 1, keys: ['maxNewTokens', 'maxLength', 'doSample', 'temperature', 'topK', 'topP', 'minP', 'repetitionPenalty', 'seed', 'stop', 'eosTokenId', 'padTokenId', 'tokenizer', 'onToken', 'signal'] },
    accepted: { 'eosTokenId:null': 'null: no end-of-sequence token, generate runs to maxNewTokens (documented)' } },
];

/** The models package's loaders and model calls, every argument position and option key given each hostile value (a model loaded per case); Node only. */
export const modelsPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
