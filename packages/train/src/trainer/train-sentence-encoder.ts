import '@attnkit/backends/gradients'; // training needs tfjs' gradient functions, which tfjs-core alone does not register (this works in Node and bundlers)
import { dispose, tidy, variableGrads, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { LayerNorm } from '@attnkit/nn';
import { SentenceEncoder } from '@attnkit/sentence';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import { readTrainingCheckpoint, saveTrainingCheckpoint } from '../checkpoint/training-checkpoint.js';
import type { Evaluation, TrainerState } from '../checkpoint/trainer-state.js';
import { AdamW } from '../optim/adamw.js';
import { clipGradNorm } from '../optim/clip-grad-norm.js';
import { linearScheduleWithWarmup } from '../optim/linear-schedule-with-warmup.js';
import { isNoDecayParameter } from '../optim/no-decay.js';
import { dataFingerprint } from './data-fingerprint.js';
import { lengthBucketedBatches } from './length-bucketed-batches.js';
import { sentenceBatchLoss } from './sentence-batch-loss.js';
import { resolveTrainingOptions, type TrainSentenceEncoderOptions } from './training-options.js';
import { checkTrainingPairs, type RankingPair, type ScoredPair } from './training-pairs.js';
import { withSeededDropout } from './with-seeded-dropout.js';
import { yieldToEventLoop } from './yield-to-event-loop.js';

/** What {@link trainSentenceEncoder} resolves with. */
export interface TrainingHistory {
  /** Steps done, counting those before a resume. */
  readonly steps: number;
  readonly totalSteps: number;
  /** The loss of every step (index `i`: step `i + 1`), including those before a resume. */
  readonly losses: readonly number[];
  /** The learning rate each step used. */
  readonly learningRates: readonly number[];
  readonly evaluations: readonly Evaluation[];
  /** Checkpoint folders written by this call. */
  readonly checkpoints: readonly string[];
  /** True when `signal` stopped the run before `totalSteps`. */
  readonly aborted: boolean;
}

/**
 * Fine-tunes a sentence encoder in place, as sentence-transformers' `SentenceTransformerTrainer`
 * does with its defaults: `MultipleNegativesRankingLoss` on `{ anchor, positive, negative? }`
 * pairs (in-batch negatives, no duplicate text within a batch) or `CosineSimilarityLoss` on
 * `{ a, b, label }`, AdamW (weight decay 0.01, none for biases and LayerNorms) with a linear
 * warm-up and decay, gradients clipped to norm 1 — every module trained: encoder and Dense.
 *
 * A function rather than a trainer class: a run is one call whose whole configuration is its
 * options, and everything that must outlive it (weights, optimiser moments, data position,
 * history) lives in the model and in checkpoints, which `resume` continues from. Nothing is left
 * to hold or dispose between calls.
 *
 * Batches are length-bucketed: the data is shuffled with `seed`, sorted by token length within
 * windows of 50 batches, cut, and the batches shuffled. The model is in train mode during steps
 * (dropout on, its masks seeded by `seed` and the step) unless `dropout: false`, and in eval mode
 * for `evaluation` and at the end. With the same seed, a run is reproducible on a backend, and a run
 * resumed from a checkpoint takes the same steps as an uninterrupted one. No tensor is left behind.
 * Checkpoints and `resume` read and write folders: Node only.
 *
 * @example
 * const model = await loadSentenceEncoder('./attnkit-tiny-bert');
 * const history = await trainSentenceEncoder(model, [{ anchor: 'a cat sits', positive: 'a kitten is sitting' }, ...], {
 *   loss: 'multiple-negatives-ranking', batchSize: 16, epochs: 1, learningRate: 5e-5,
 *   checkpoint: { folder: './run', source: './attnkit-tiny-bert', every: 100 },
 * });
 * history.losses.at(-1); // the last step's loss
 */
export async function trainSentenceEncoder(model: SentenceEncoder, data: readonly RankingPair[] | readonly ScoredPair[], options: TrainSentenceEncoderOptions): Promise<TrainingHistory> {
  const caller = 'trainSentenceEncoder';
  if (!(model instanceof SentenceEncoder)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a SentenceEncoder (loadSentenceEncoder)', received: describeValue(model) });
  if (model.pooling === undefined) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a SentenceEncoder whose folder has a Pooling module', received: 'one without (token embeddings only)' });
  const o = resolveTrainingOptions(options, model.maxSeqLength, caller);
  const pairs = checkTrainingPairs(data, o.loss, caller);
  const ranking = o.loss === 'multiple-negatives-ranking';
  const count = pairs.texts.length;

  // the data order: every epoch's batches follow from the seed, so a resumed run finds its place
  const lengths = pairs.texts.map((row) => Math.max(...model.tokenizer.encode(row, { maxLength: o.maxSeqLength, truncation: true }).inputIds.map((ids) => ids.length)));
  const plans = new Map<number, number[][]>();
  const plan = (epoch: number): number[][] => {
    let batches = plans.get(epoch);
    if (batches === undefined) plans.set(epoch, (batches = lengthBucketedBatches(count, { batchSize: o.batchSize, seed: o.seed, epoch, lengths, ...(ranking ? { texts: pairs.texts } : {}) })));
    return batches;
  };
  const totalSteps = o.maxSteps ?? Array.from({ length: o.epochs ?? 1 }, (_, epoch) => plan(epoch).length).reduce((a, b) => a + b, 0);
  const warmupSteps = 'steps' in o.warmup ? Math.min(o.warmup.steps, totalSteps) : Math.ceil(o.warmup.ratio * totalSteps);
  const schedule = linearScheduleWithWarmup({ warmupSteps, totalSteps });
  const fingerprint = dataFingerprint(pairs);

  // every trainable parameter: the encoder's under its checkpoint keys, then each Dense module's
  const modules = [['', model.encoder] as const, ...model.dense.map((dense, i) => [`dense.${i}.`, dense] as const)];
  const named: Array<[string, Variable]> = modules.flatMap(([prefix, module]) => module.namedParameters().filter(([, p]) => p.trainable).map(([name, p]): [string, Variable] => [prefix + name, p]));
  const layerNormParameters = new Set(modules.flatMap(([prefix, module]) => module.namedModules().filter(([, m]) => m instanceof LayerNorm).flatMap(([path, m]) => m.namedParameters().map(([name]) => `${prefix}${path === '' ? '' : `${path}.`}${name}`))));
  const optimizer = new AdamW(named, { learningRate: o.learningRate, weightDecay: o.weightDecay, noDecay: (name) => isNoDecayParameter(name) || layerNormParameters.has(name) });
  const variables = named.map(([, p]) => p);

  let step = 0;
  let epoch = 0;
  let batchInEpoch = 0;
  const losses: number[] = [];
  const learningRates: number[] = [];
  const evaluations: Evaluation[] = [];
  const checkpoints: string[] = [];
  let aborted = false;
  let savedAt = -1;
  const setMode = (training: boolean): void => {
    for (const [, module] of modules) module.train(training);
  };
  const state = (): TrainerState => ({ format: 'attnkit-trainer-state', version: 1, step, totalSteps, epoch, batchInEpoch, seed: o.seed, batchSize: o.batchSize, loss: o.loss, examples: count, dataFingerprint: fingerprint, losses, learningRates, evaluations });
  const save = async (): Promise<void> => {
    if (o.checkpoint === undefined || savedAt === step) return;
    setMode(false);
    checkpoints.push(await saveTrainingCheckpoint(o.checkpoint.folder, { model, source: o.checkpoint.source, optimizer, state: state() }, o.checkpoint.keep, caller));
    savedAt = step;
  };
  const evaluate = async (): Promise<void> => {
    if (o.evaluation === undefined) return;
    setMode(false);
    const metrics = await o.evaluation.evaluate(model);
    evaluations.push({ step, epoch: epoch + batchInEpoch / plan(epoch).length, metrics: { ...metrics } });
  };

  try {
    if (o.resume !== undefined) {
      const resumed = await readTrainingCheckpoint(o.resume, caller);
      const s = resumed.state;
      const mismatch = ([['seed', s.seed, o.seed], ['batchSize', s.batchSize, o.batchSize], ['loss', s.loss, o.loss], ['the number of examples', s.examples, count], ['the data (fingerprint)', s.dataFingerprint, fingerprint]] as const).find(([, saved, given]) => saved !== given);
      if (mismatch !== undefined) throw new CheckpointError(caller, resumed.folder, `${resumed.folder} was written with ${mismatch[0]} = ${JSON.stringify(mismatch[1])}, this run has ${JSON.stringify(mismatch[2])}; resume with the same data, loss, seed and batchSize (they fix the data order).`);
      if (s.step > totalSteps) throw new CheckpointError(caller, resumed.folder, `${resumed.folder} is at step ${s.step}, past this run's ${totalSteps} steps.`);
      if (resumed.denseWeights.length !== model.dense.length) throw new CheckpointError(caller, resumed.folder, `${resumed.folder} has ${resumed.denseWeights.length} Dense modules; the model has ${model.dense.length}.`);
      model.encoder.loadStateDict(resumed.encoderWeights);
      model.dense.forEach((dense, i) => dense.loadStateDict(resumed.denseWeights[i]!));
      optimizer.importState(resumed.optimizer);
      ({ step, epoch, batchInEpoch } = s);
      losses.push(...s.losses);
      learningRates.push(...s.learningRates);
      evaluations.push(...s.evaluations);
      savedAt = step;
    }
    const started = performance.now();
    const startStep = step;
    while (step < totalSteps) {
      if (o.signal?.aborted === true) {
        aborted = true;
        break;
      }
      const indices = plan(epoch)[batchInEpoch]!;
      const learningRate = o.learningRate * schedule(step);
      optimizer.learningRate = learningRate;
      const columns = (pairs.texts[indices[0]!] as readonly string[]).map((_, c) => indices.map((i) => (pairs.texts[i] as readonly string[])[c] as string));
      const batch = { columns, labels: ranking ? [] : indices.map((i) => pairs.labels[i] as number) };
      setMode(o.dropout);
      const { value, grads } = withSeededDropout(o.seed, step, () => variableGrads(() => sentenceBatchLoss(model, batch, o), variables));
      let loss: number;
      try {
        if (o.maxGradNorm > 0) {
          const { gradients, totalNorm } = clipGradNorm(grads, o.maxGradNorm);
          optimizer.applyGradients(gradients);
          dispose([totalNorm, ...Object.values(gradients)]);
        } else {
          optimizer.applyGradients(grads);
        }
        loss = (await value.data())[0] as number;
      } finally {
        dispose([value, ...Object.values(grads)]);
      }
      step += 1;
      batchInEpoch += 1;
      if (batchInEpoch >= plan(epoch).length) [epoch, batchInEpoch] = [epoch + 1, 0];
      losses.push(loss);
      learningRates.push(learningRate);
      const seconds = (performance.now() - started) / 1000;
      const stepsPerSecond = (step - startStep) / Math.max(seconds, 1e-9);
      o.onProgress?.({ step, totalSteps, epoch: epoch + batchInEpoch / plan(epoch).length, loss, learningRate, stepsPerSecond, etaSeconds: (totalSteps - step) / stepsPerSecond });
      if (o.evaluation !== undefined && (step % o.evaluation.every === 0 || step === totalSteps)) await evaluate();
      if (o.checkpoint?.every !== undefined && step % o.checkpoint.every === 0) await save();
      await yieldToEventLoop(); // a Ctrl-C handler's abort, a repaint, a progress bar get their turn between steps
    }
    if (aborted || step === totalSteps) await save();
  } finally {
    optimizer.dispose();
    setMode(false);
  }
  return { steps: step, totalSteps, losses, learningRates, evaluations, checkpoints, aborted };
}
