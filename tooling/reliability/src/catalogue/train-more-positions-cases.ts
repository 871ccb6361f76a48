import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ones, square, sub, sum, tensor2d, tidy, variable, zeros, type Scalar, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { Linear } from '@attnkit/nn';
import { loadBertForMaskedLM, loadCausalLM, seededRandom } from '@attnkit/models';
import { loadSentenceEncoder } from '@attnkit/sentence';
import {
  AdamW, CheckpointError, WordnetReadError, bagOfWordsEmbedder, causalLMFolderFiles, checkTrainingPairs, clipGradNorm, evaluateMaskedLM, evaluateWordnetRetrieval, glossKey, isNoDecayParameter,
  lengthBucketedBatches, linearScheduleWithWarmup, maskTokens, maskedLMFolderFiles, parseWordnetLine, readWordnet, resolveTrainingOptions, retrievalMetrics, runTrainingLoop, saveTrainingCheckpoint,
  seededHash, sentenceBatchLoss, sentenceFolderFiles, sharedGlossTexts, splitGloss, splitSynsets, wordnetPairs, type TrainerState, type WordnetSynset,
} from '@attnkit/train';
import type { CatalogueCase } from './catalogue-case.js';
import { variants, type ValidCall } from './positions-cases.js';
import { CAUSAL, MLM, MODEL, SENTENCE, TOKENIZER, freshFolder, withModel } from './train-positions-cases.js';

/** Numbers the catalogue's tfjs variables (their names must be unique). */
let variables = 0;
/** A WordNet dict folder of two adverb lines (WordNet 3.1's first two), written once. */
const DICT = freshFolder();
mkdirSync(DICT);
const ADVERB = '00001740 02 r 02 a_cappella 0 a_capella 0 002 \\ 02260096 a 0202 \\ 02260096 a 0101 | without musical accompaniment; "they performed a cappella"  ';
writeFileSync(join(DICT, 'data.adv'), `  1 This software and database is being provided to you, the LICENSEE\n${ADVERB}\n00001885 02 r 03 AD 0 A.D. 0 anno_Domini 0 000 | in the Christian era; used before dates after the supposed year Christ was born; "in AD 200"  \n`);

const SEED = 'any integer seed is a seed (as torch.manual_seed takes negative ones)';
const CALLER = 'the caller only names the function in messages';
const ANY_DETAILS = 'an error class builds its error from whatever it is given (values described), so reporting never throws (documented)';
const POSITIONS = ['undefined', 'null', 'NaN', '{}', '"x"', 'a sparse array [1, , 1]', 'a disposed tensor', 'an int32 tensor', 'a rank-0 float tensor'];
/** A `caller` argument at `position`: any value only names the function in messages. */
const callerAccepted = (position: number): Record<string, string> => Object.fromEntries(POSITIONS.filter((l) => l !== 'undefined').map((l) => [`${position}:${l}`, CALLER]));
/** An error class's positions `0 .. width - 1`: every value accepted. */
const anyDetails = (width: number): Record<string, string> => Object.fromEntries(Array.from({ length: width }, (_, p) => POSITIONS.map((l) => [`${p}:${l}`, ANY_DETAILS])).flat());

const sentenceModel = () => loadSentenceEncoder(SENTENCE);

/** A module whose parameters an optimiser owns for one case (disposed with it). */
function withOptimizer(use: (optimizer: AdamW, layer: Linear) => unknown): unknown {
  const layer = new Linear(2, 2, { seed: 1 });
  const optimizer = new AdamW(layer, { learningRate: 0.1 });
  try { return use(optimizer, layer); } finally { optimizer.dispose(); layer.dispose(); }
}
/** Stands for gradients keyed by the optimiser's variable names (made inside the call). */
const GRADIENTS = Symbol('the gradients');
function applyGradients(given: unknown): void {
  withOptimizer((optimizer, layer) => tidy(() => {
    optimizer.applyGradients((given === GRADIENTS ? Object.fromEntries(layer.parameters().map((p) => [p.name, zeros(p.shape)])) : given) as never);
  }));
}
/** Stands for a loss over the optimiser's layer (made inside the call). */
const LOSS = Symbol('the loss');
function minimize(f: unknown, returnCost: unknown, varList: unknown): void {
  withOptimizer((optimizer, layer) => tidy(() => {
    optimizer.minimize((f === LOSS ? () => sum(square(layer.forward(ones([1, 2])))) : f) as never, returnCost as never, varList as never);
  }));
}
const adamState = () => ({ step: 0, learningRate: 0.1, parameters: {} });

/** Stands for the trainable variable of a one-parameter run, made inside the call (and disposed after it). */
const PARAMETERS = Symbol('the parameters');
let current: Variable | undefined;
const identity = () => ({ loss: 'squared', examples: 2, dataFingerprint: 'ab', batchSize: 1 });
const trainingRun = () => ({
  caller: 'catalogue', parameters: PARAMETERS, noDecay: () => false, plan: () => [[0], [1]], totalSteps: 2, learningRate: 0.1, warmupSteps: 0, weightDecay: 0, maxGradNorm: 1, seed: 1, dropout: false,
  batchLoss: (): Scalar => sum(square(sub(current!, 1))), setMode: () => undefined, identity: identity(),
});
const RUN_KEYS = ['caller', 'parameters', 'noDecay', 'plan', 'totalSteps', 'learningRate', 'warmupSteps', 'weightDecay', 'maxGradNorm', 'seed', 'dropout', 'batchLoss', 'setMode', 'identity', 'save', 'saveEvery', 'restore', 'evaluation', 'onProgress', 'signal'];
async function trainingLoop(run: unknown): Promise<unknown> {
  const parameter = tidy(() => variable(zeros([2]), true, `catalogue-run-${(variables += 1)}`)); // the initial zeros disposed
  current = parameter;
  try {
    const given = run !== null && typeof run === 'object' && (run as { parameters?: unknown }).parameters === PARAMETERS ? { ...run, parameters: [['w', parameter]] } : run;
    return await runTrainingLoop(given as never);
  } finally {
    parameter.dispose();
  }
}

const synsets = (): WordnetSynset[] => [
  { id: 'r00001740', pos: 'r', lemmas: ['a cappella', 'a capella'], definition: 'without musical accompaniment', examples: ['they performed a cappella'] },
  { id: 'r00001885', pos: 'r', lemmas: ['AD', 'A.D.', 'anno Domini'], definition: 'in the Christian era', examples: ['in AD 200'] },
  { id: 'r00002029', pos: 'r', lemmas: ['CE', 'C.E.', 'Common Era'], definition: 'of the period coinciding with the Christian era', examples: ['in 200 CE'] },
];
/** A stand-in for a sentence encoder's embedding: one row per text (the evaluation's inputs are what is checked). */
const embed = (texts: string[]) => Promise.resolve(tensor2d(texts.map((t, i) => [t.length + 1, i + 1])));
const trainerState = (): TrainerState => ({ format: 'attnkit-trainer-state', version: 1, step: 1, totalSteps: 2, epoch: 0, batchInEpoch: 1, seed: 1, batchSize: 2, loss: 'multiple-negatives-ranking', examples: 2, dataFingerprint: 'ab', losses: [1], learningRates: [0.1], evaluations: [] });
/** Stands for the optimiser of a checkpoint (over the loaded model's parameters, made inside the call). */
const OPTIMIZER = Symbol('the optimizer');
const TRAIN_KEYS = ['loss', 'scale', 'batchSize', 'epochs', 'maxSteps', 'learningRate', 'warmupRatio', 'warmupSteps', 'weightDecay', 'maxGradNorm', 'seed', 'maxSeqLength', 'dropout', 'evaluation', 'checkpoint', 'resume', 'onProgress', 'signal'];
const mask = () => ({ vocabSize: 10, maskTokenId: 4, isSpecial: (id: number) => id < 2, probability: 0.5, maskReplaceProbability: 0.8, randomReplaceProbability: 0.1, random: seededRandom(1) });

const VALID_CALLS: readonly ValidCall[] = [
  // optimiser and schedule
  { name: 'train.AdamW', args: () => [new Linear(2, 2, { seed: 1 }), { learningRate: 0.1, betas: [0.9, 0.999], eps: 1e-8, weightDecay: 0.01, noDecay: () => false }], call: ([p, o]) => new AdamW(p as never, o as never).dispose(), optional: [1],
    options: { index: 1, keys: ['learningRate', 'betas', 'eps', 'weightDecay', 'noDecay'] } },
  { name: 'train.AdamW.minimize', args: () => [LOSS, true, undefined], call: ([f, r, v]) => minimize(f, r, v), optional: [1, 2] },
  { name: 'train.AdamW.applyGradients', args: () => [GRADIENTS], call: ([g]) => applyGradients(g), accepted: { '0:{}': 'no gradients: every parameter is left alone this step (documented, as in PyTorch)' } },
  { name: 'train.AdamW.importState', args: () => [adamState()], call: ([s]) => withOptimizer((optimizer) => optimizer.importState(s as never)), options: { index: 0, keys: ['step', 'learningRate', 'parameters'] }, accepted: { 'parameters:{}': 'no moments yet: the state of an optimiser before its first step' } },
  { name: 'train.clipGradNorm', args: () => [{ w: tensor2d([[3, 4]]) }, 1], call: ([g, n]) => { const { gradients, totalNorm } = clipGradNorm(g as never, n as never); totalNorm.dispose(); Object.values(gradients).forEach((t) => (t as Tensor).dispose()); },
    accepted: { '0:{}': 'no gradients: a total norm of 0' } },
  { name: 'train.linearScheduleWithWarmup', args: () => [{ warmupSteps: 2, totalSteps: 10 }, 3], call: ([o, s]) => linearScheduleWithWarmup(o as never)(s as never), options: { index: 0, keys: ['warmupSteps', 'totalSteps'] } },
  { name: 'train.isNoDecayParameter', args: () => ['encoder.layer.0.output.dense.bias'], call: ([n]) => isNoDecayParameter(n as never), accepted: { '0:"x"': 'a parameter name: "x" decays (false)' } },
  // the training loop and its inputs
  { name: 'train.runTrainingLoop', args: () => [trainingRun()], call: ([r]) => trainingLoop(r), options: { index: 0, keys: RUN_KEYS }, accepted: { 'seed:-1': SEED, 'caller:"x"': 'the name of the trainer, for messages' } },
  { name: 'train.resolveTrainingOptions', args: () => [{ loss: 'multiple-negatives-ranking', batchSize: 2 }, 32, 'caller'], call: ([o, m, c]) => resolveTrainingOptions(o as never, m as never, c as never), optional: [2],
    options: { index: 0, keys: TRAIN_KEYS }, accepted: { ...callerAccepted(2), 'resume:"x"': 'a checkpoint folder path (read when training starts)' } },
  { name: 'train.checkTrainingPairs', args: () => [[{ anchor: 'a', positive: 'b' }], 'multiple-negatives-ranking', 'caller'], call: ([d, l, c]) => checkTrainingPairs(d, l as never, c as never), optional: [2], accepted: callerAccepted(2) },
  { name: 'train.lengthBucketedBatches', args: () => [4, { batchSize: 2, seed: 1, epoch: 0, lengths: [3, 1, 2, 4], texts: [['a'], ['b'], ['c'], ['d']], windowBatches: 2 }], call: ([n, o]) => lengthBucketedBatches(n as never, o as never),
    options: { index: 1, keys: ['batchSize', 'seed', 'epoch', 'lengths', 'texts', 'windowBatches'] }, accepted: { 'seed:-1': SEED } },
  { name: 'train.sentenceBatchLoss', args: () => [MODEL, { columns: [['a cat', 'a dog'], ['a kitten', 'a puppy']], labels: [] }, { loss: 'multiple-negatives-ranking', scale: 20, maxSeqLength: 16 }],
    call: ([m, b, o]) => withModel(sentenceModel, SENTENCE, [m, b, o], (a, c, d) => tidy(() => { sentenceBatchLoss(a as never, c as never, d as never); })), options: { index: 2, keys: ['loss', 'scale', 'maxSeqLength'] } },
  { name: 'train.saveTrainingCheckpoint', args: () => [freshFolder(), { model: MODEL, source: SENTENCE, optimizer: OPTIMIZER, state: trainerState() }, 1, 'caller'], call: ([f, c, k, n]) => checkpointCall(f, c, k, n), optional: [2, 3],
    options: { index: 1, keys: ['model', 'source', 'optimizer', 'state'] }, accepted: { '3:"x"': CALLER } },
  // errors
  { name: 'train.CheckpointError', args: () => ['caller', 'folder', 'the checkpoint is bad', undefined], call: ([c, f, m, x]) => new CheckpointError(c as never, f as never, m as never, x), accepted: anyDetails(4) },
  { name: 'train.WordnetReadError', args: () => ['dict/data.adv', 3, 'a bad line', { cause: undefined }], call: ([p, l, m, o]) => new WordnetReadError(p as never, l as never, m as never, o as never), accepted: anyDetails(4) },
  // WordNet reading, pairs and splits
  { name: 'train.readWordnet', args: () => [DICT, { pos: ['r'] }], call: ([d, o]) => readWordnet(d as never, o as never), optional: [1], options: { index: 1, keys: ['pos'] } },
  { name: 'train.parseWordnetLine', args: () => [ADVERB, { file: 'data.adv', line: 2, pos: 'r' }], call: ([t, s]) => parseWordnetLine(t as never, s as never), options: { index: 1, keys: ['file', 'line', 'pos'] }, accepted: { 'file:"x"': 'a file name, for messages' } },
  { name: 'train.splitGloss', args: () => ['without musical accompaniment; "they performed a cappella"'], call: ([g]) => splitGloss(g as never), accepted: { '0:"x"': 'a gloss: "x" is a definition without examples' } },
  { name: 'train.glossKey', args: () => ['Without  Music'], call: ([t]) => glossKey(t as never), accepted: { '0:"x"': 'a gloss text: its key "x"' } },
  { name: 'train.sharedGlossTexts', args: () => [synsets()], call: ([s]) => sharedGlossTexts(s as never) },
  { name: 'train.seededHash', args: () => ['text', 1], call: ([t, s]) => seededHash(t as never, s as never), accepted: { '0:"x"': 'a text: its hash' } },
  { name: 'train.splitSynsets', args: () => [synsets(), { heldOutFraction: 0.34, seed: 1 }], call: ([s, o]) => splitSynsets(s as never, o as never), optional: [1], options: { index: 1, keys: ['heldOutFraction', 'seed'] } },
  { name: 'train.wordnetPairs', args: () => [synsets(), { seed: 1, maxPerSynset: 2 }], call: ([s, o]) => wordnetPairs(s as never, o as never), optional: [1], options: { index: 1, keys: ['kinds', 'seed', 'maxPerSynset'] } },
  // evaluation
  { name: 'train.retrievalMetrics', args: () => [tensor2d([[1, 0], [0, 1]]), tensor2d([[1, 0], [0, 1], [1, 1]]), [0, 1], {}], call: ([q, c, r, o]) => retrievalMetrics(q as never, c as never, r as never, o as never), optional: [3],
    options: { index: 3, keys: ['chunkSize'] } },
  { name: 'train.evaluateWordnetRetrieval', args: () => [embed, synsets(), { batchSize: 2 }], call: ([e, h, o]) => evaluateWordnetRetrieval(e as never, h as never, o as never), optional: [2], options: { index: 2, keys: ['queries', 'batchSize'] } },
  { name: 'train.bagOfWordsEmbedder', args: () => [MODEL, { batchSize: 2 }], call: ([m, o]) => withModel(sentenceModel, SENTENCE, [m, o], async (a, b) => (await bagOfWordsEmbedder(a as never, b as never)(['a cat', 'a dog'])).dispose()), optional: [1],
    options: { index: 1, keys: ['batchSize'] } },
  { name: 'train.maskTokens', args: () => [[[0, 5, 6, 7, 1]], [[1, 1, 1, 1, 1]], mask()], call: ([i, a, o]) => maskTokens(i as never, a as never, o as never),
    options: { index: 2, keys: ['vocabSize', 'maskTokenId', 'isSpecial', 'probability', 'maskReplaceProbability', 'randomReplaceProbability', 'random'] } },
  { name: 'train.evaluateMaskedLM', args: () => [MODEL, TOKENIZER, ['the cat sat on the mat', 'a dog ran'], { batchSize: 2, seed: 1 }], call: ([m, t, x, o]) => withModel(() => loadBertForMaskedLM(MLM), MLM, [m, t, x, o], (a, b, c, d) => evaluateMaskedLM(a as never, b as never, c as never, d as never)), optional: [3],
    options: { index: 3, keys: ['batchSize', 'seed', 'maxSeqLength', 'maskToken'] } },
  // the files of saved folders
  { name: 'train.sentenceFolderFiles', args: () => [MODEL, SENTENCE, 'caller'], call: ([m, s, c]) => withModel(sentenceModel, SENTENCE, [m, s, c], (a, b, d) => sentenceFolderFiles(a as never, b as never, d as never)), optional: [2], accepted: { '2:"x"': CALLER } },
  { name: 'train.maskedLMFolderFiles', args: () => [MODEL, MLM, 'caller'], call: ([m, s, c]) => withModel(() => loadBertForMaskedLM(MLM), MLM, [m, s, c], (a, b, d) => maskedLMFolderFiles(a as never, b as never, d as never)), optional: [2], accepted: { '2:"x"': CALLER } },
  { name: 'train.causalLMFolderFiles', args: () => [MODEL, CAUSAL, 'caller'], call: ([m, s, c]) => withModel(() => loadCausalLM(CAUSAL), CAUSAL, [m, s, c], (a, b, d) => causalLMFolderFiles(a as never, b as never, d as never)), optional: [2], accepted: { '2:"x"': CALLER } },
];

/** A checkpoint of a loaded sentence encoder and an optimiser over its parameters (both made inside the call, disposed after it). */
async function checkpointCall(folder: unknown, checkpoint: unknown, keep: unknown, caller: unknown): Promise<void> {
  const given = checkpoint !== null && typeof checkpoint === 'object' ? (checkpoint as Record<string, unknown>) : undefined;
  const model = given?.['model'] === MODEL ? await sentenceModel() : undefined;
  const parameter = given?.['optimizer'] === OPTIMIZER ? tidy(() => variable(zeros([1]), true, `catalogue-checkpoint-${(variables += 1)}`)) : undefined;
  const optimizer = parameter === undefined ? undefined : new AdamW([['w', parameter]]);
  try {
    const made = given === undefined ? checkpoint : { ...given, ...(model === undefined ? {} : { model }), ...(optimizer === undefined ? {} : { optimizer }) };
    await saveTrainingCheckpoint(folder as never, made as never, keep as never, caller as never);
  } finally {
    model?.dispose();
    optimizer?.dispose();
    parameter?.dispose();
  }
}

/** A relative folder path ("x") is a valid place to save: not run, as it would write into the working folder. */
const WRITES_HERE = /^train\.saveTrainingCheckpoint argument 1 = "x"$/;

/**
 * The train package's remaining exports — the optimiser, schedule and clipping, the training loop and its
 * options, checkpoints and their errors, WordNet reading and pairs, the evaluations, masking and the files
 * of saved folders — every argument position and option key given each hostile value; Node only.
 */
export const trainMorePositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants).filter((c) => !WRITES_HERE.test(c.input));
