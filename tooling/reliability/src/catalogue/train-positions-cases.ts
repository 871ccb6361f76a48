import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tensor1d, tensor2d, tensor3d, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { loadBertForMaskedLM, loadCausalLM } from '@attnkit/models';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { loadTokenizer, type Tokenizer } from '@attnkit/tokenizers';
import { causalLanguageModelLoss, cosineSimilarityLoss, maskedLanguageModelLoss, multipleNegativesRankingLoss, saveCausalLMFolder, saveMaskedLMFolder, saveSentenceFolder, trainCausalLanguageModel, trainMaskedLanguageModel, trainSentenceEncoder } from '@attnkit/train';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

/** The train tables' fixtures: a sentence-transformers folder, a masked LM saved by attnkit, a causal LM. */
export const SENTENCE = repoPath('tooling/reference/fixtures/sentence/bert-cls/');
export const MLM = repoPath('tooling/reference/fixtures/attnkit-saved-mlm/'); // a BERT masked LM with its tokenizer
export const CAUSAL = repoPath('tooling/reference/fixtures/decoders/qwen3/');
const scratch = mkdtempSync(join(tmpdir(), 'attnkit-train-positions-'));
let folders = 0;
/** A folder path no case has written to (each save writes its own). */
export const freshFolder = () => join(scratch, `out-${(folders += 1)}`);

/** Stands for the model (loaded by the call: no tensor outlives a case) or tokenizer at its position; a hostile value replaces it. */
export const MODEL = Symbol('the model');
export const TOKENIZER = Symbol('the tokenizer');
let tokenizers: Map<string, Tokenizer> | undefined; // tokenizers hold no tensors: loaded once
async function tokenizerOf(folder: string): Promise<Tokenizer> {
  tokenizers ??= new Map();
  const known = tokenizers.get(folder);
  if (known !== undefined) return known;
  const loaded = await loadTokenizer(folder);
  tokenizers.set(folder, loaded);
  return loaded;
}
/** Runs `fn` with MODEL (and TOKENIZER) in `args` replaced by a fresh model (its tokenizer), then disposes the model. */
export async function withModel(load: () => Promise<{ dispose(): void; readonly isDisposed?: boolean }>, folder: string, args: unknown[], fn: (...args: unknown[]) => unknown): Promise<void> {
  const model = args.includes(MODEL) ? await load() : undefined;
  const tokenizer = args.includes(TOKENIZER) ? await tokenizerOf(folder) : undefined;
  try {
    await fn(...args.map((a) => (a === MODEL ? model : a === TOKENIZER ? tokenizer : a)));
  } finally {
    if (model !== undefined && model.isDisposed !== true) model.dispose();
  }
}
const STEP = { maxSteps: 1, batchSize: 2 };
const pairs = () => [{ anchor: 'a cat', positive: 'a kitten' }, { anchor: 'a dog', positive: 'a puppy' }];
const texts = () => ['the cat sat on the mat', 'a dog ran in the park'];
const loss = (fn: () => Tensor) => tidy(() => { fn(); });
const TRAIN_KEYS = ['batchSize', 'epochs', 'maxSteps', 'learningRate', 'warmupRatio', 'warmupSteps', 'weightDecay', 'maxGradNorm', 'seed', 'maxSeqLength', 'dropout', 'evaluation', 'checkpoint', 'resume', 'onProgress', 'signal'];

const VALID_CALLS: readonly ValidCall[] = [
  { name: 'train.trainSentenceEncoder', args: () => [MODEL, pairs(), { loss: 'multiple-negatives-ranking', ...STEP }], call: ([m, d, o]) => withModel(() => loadSentenceEncoder(SENTENCE), SENTENCE, [m, d, o], (a, b, c) => trainSentenceEncoder(a as never, b as never, c as never)),
    options: { index: 2, keys: ['loss', 'scale', ...TRAIN_KEYS] } },
  { name: 'train.trainMaskedLanguageModel', args: () => [MODEL, TOKENIZER, texts(), { ...STEP }], call: ([m, t, x, o]) => withModel(() => loadBertForMaskedLM(MLM), MLM, [m, t, x, o], (a, b, c, d) => trainMaskedLanguageModel(a as never, b as never, c as never, d as never)), optional: [3],
    options: { index: 3, keys: ['maskProbability', 'maskToken', ...TRAIN_KEYS] } },
  { name: 'train.trainCausalLanguageModel', args: () => [MODEL, TOKENIZER, texts(), { ...STEP }], call: ([m, t, x, o]) => withModel(() => loadCausalLM(CAUSAL), CAUSAL, [m, t, x, o], (a, b, c, d) => trainCausalLanguageModel(a as never, b as never, c as never, d as never)), optional: [3],
    options: { index: 3, keys: TRAIN_KEYS } },
  { name: 'train.saveSentenceFolder', args: () => [MODEL, freshFolder(), { source: SENTENCE }], call: ([m, f, o]) => withModel(() => loadSentenceEncoder(SENTENCE), SENTENCE, [m, f, o], (a, b, c) => saveSentenceFolder(a as never, b as never, c as never)),
    options: { index: 2, keys: ['source', 'overwrite'] } },
  { name: 'train.saveMaskedLMFolder', args: () => [MODEL, freshFolder(), { source: MLM }], call: ([m, f, o]) => withModel(() => loadBertForMaskedLM(MLM), MLM, [m, f, o], (a, b, c) => saveMaskedLMFolder(a as never, b as never, c as never)),
    options: { index: 2, keys: ['source', 'overwrite'] } },
  { name: 'train.saveCausalLMFolder', args: () => [MODEL, freshFolder(), { source: CAUSAL }], call: ([m, f, o]) => withModel(() => loadCausalLM(CAUSAL), CAUSAL, [m, f, o], (a, b, c) => saveCausalLMFolder(a as never, b as never, c as never)),
    options: { index: 2, keys: ['source', 'overwrite'] } },
  { name: 'train.multipleNegativesRankingLoss', args: () => [tensor2d([[1, 0], [0, 1]]), tensor2d([[1, 0], [0, 1]]), {}], call: ([a, p, o]) => loss(() => multipleNegativesRankingLoss(a as never, p as never, o as never)), optional: [2],
    options: { index: 2, keys: ['scale', 'hardNegatives'] } },
  { name: 'train.cosineSimilarityLoss', args: () => [tensor2d([[1, 0], [0, 1]]), tensor2d([[1, 0], [1, 1]]), tensor1d([1, 0.5])], call: ([a, b, l]) => loss(() => cosineSimilarityLoss(a as never, b as never, l as never)) },
  { name: 'train.maskedLanguageModelLoss', args: () => [tensor3d([[[0, 1], [1, 0]]]), [[1, -100]]], call: ([x, l]) => loss(() => maskedLanguageModelLoss(x as never, l as never)) },
  { name: 'train.causalLanguageModelLoss', args: () => [tensor3d([[[0, 1], [1, 0], [2, -2]]]), [[0, 1, 0]], {}], call: ([x, l, o]) => loss(() => causalLanguageModelLoss(x as never, l as never, o as never)), optional: [2],
    options: { index: 2, keys: ['attentionMask'] } },
];

/** A relative folder path ("x") is a valid place to save: not run, as it would write into the working folder. */
const WRITES_HERE = /^train\.save\w+ argument 2 = "x"$/;

/** The train package's trainers (one step), folder savers (to temporary folders) and losses, every argument position and option key given each hostile value; Node only. */
export const trainPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants).filter((c) => !WRITES_HERE.test(c.input));
