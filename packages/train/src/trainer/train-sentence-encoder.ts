import type { Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { SentenceEncoder } from '@attnkit/sentence';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import { readTrainingCheckpoint, saveTrainingCheckpoint } from '../checkpoint/training-checkpoint.js';
import { checkFloatModel } from './check-float-model.js';
import { dataFingerprint } from './data-fingerprint.js';
import { noDecayOf, runSchedule } from './run-schedule.js';
import { sentenceBatchLoss } from './sentence-batch-loss.js';
import { sentenceEncoderOf } from './sentence-encoder-of.js';
import { resolveTrainingOptions, type TrainSentenceEncoderOptions } from './training-options.js';
import { checkTrainingPairs, type RankingPair, type ScoredPair } from './training-pairs.js';
import { runTrainingLoop, type TrainingHistory } from './training-loop.js';

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
  checkFloatModel([sentenceEncoderOf(model, caller, 'train'), ...model.dense], caller, 'train');
  const o = resolveTrainingOptions(options, model.maxSeqLength, caller);
  const pairs = checkTrainingPairs(data, o.loss, caller);
  const ranking = o.loss === 'multiple-negatives-ranking';

  // the data order: every epoch's batches follow from the seed, so a resumed run finds its place
  const lengths = pairs.texts.map((row) => Math.max(...model.tokenizer.encode(row, { maxLength: o.maxSeqLength, truncation: true }).inputIds.map((ids) => ids.length)));
  // every trainable parameter: the encoder's under its checkpoint keys, then each Dense module's
  const modules = [['', model.encoder] as const, ...model.dense.map((dense, i) => [`dense.${i}.`, dense] as const)];
  const parameters: Array<[string, Variable]> = modules.flatMap(([prefix, module]) => module.namedParameters().filter(([, p]) => p.trainable).map(([name, p]): [string, Variable] => [prefix + name, p]));
  const checkpoint = o.checkpoint;
  const resume = o.resume;

  return runTrainingLoop({
    caller,
    parameters,
    noDecay: noDecayOf(modules),
    ...runSchedule(o, lengths, ranking ? pairs.texts : undefined),
    batchLoss: (indices) => {
      const columns = (pairs.texts[indices[0]!] as readonly string[]).map((_, c) => indices.map((i) => (pairs.texts[i] as readonly string[])[c] as string));
      return sentenceBatchLoss(model, { columns, labels: ranking ? [] : indices.map((i) => pairs.labels[i] as number) }, o);
    },
    setMode: (training) => {
      for (const [, module] of modules) module.train(training);
    },
    identity: { loss: o.loss, examples: pairs.texts.length, dataFingerprint: dataFingerprint(pairs), batchSize: o.batchSize },
    ...(checkpoint === undefined ? {} : { save: (state, optimizer) => saveTrainingCheckpoint(checkpoint.folder, { model, source: checkpoint.source, optimizer, state }, checkpoint.keep, caller) }),
    ...(resume === undefined ? {} : {
      restore: async () => {
        const resumed = await readTrainingCheckpoint(resume, caller);
        if (resumed.denseWeights.length !== model.dense.length) throw new CheckpointError(caller, resumed.folder, `${resumed.folder} has ${resumed.denseWeights.length} Dense modules; the model has ${model.dense.length}.`);
        return {
          folder: resumed.folder,
          state: resumed.state,
          optimizer: resumed.optimizer,
          loadWeights: () => {
            model.encoder.loadStateDict(resumed.encoderWeights);
            model.dense.forEach((dense, i) => dense.loadStateDict(resumed.denseWeights[i]!));
          },
        };
      },
    }),
    ...(o.evaluation === undefined ? {} : { evaluation: { every: o.evaluation.every, evaluate: () => o.evaluation!.evaluate(model) } }),
  });
}
