import { checkModelSource, type ModelSource } from '@attnkit/hub';
import { InvalidArgumentError, checkBoolean, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { SENTENCE_LOSSES, type SentenceLoss } from './training-pairs.js';

/** What {@link trainSentenceEncoder} reports after each step. */
export interface TrainingProgress {
  /** Steps done (1 after the first). */
  readonly step: number;
  readonly totalSteps: number;
  /** Epochs done, fractional (1.5: half-way through the second). */
  readonly epoch: number;
  /** This step's loss. */
  readonly loss: number;
  /** The learning rate this step used. */
  readonly learningRate: number;
  /** Steps per second in this call so far. */
  readonly stepsPerSecond: number;
  /** Seconds left at that speed. */
  readonly etaSeconds: number;
}

/** Options of {@link trainSentenceEncoder}. */
export interface TrainSentenceEncoderOptions {
  /** `'multiple-negatives-ranking'` (data `{ anchor, positive, negative? }`) or `'cosine-similarity'` (data `{ a, b, label }`). */
  readonly loss: SentenceLoss;
  /** The ranking loss's factor on cosine similarities (default 20). */
  readonly scale?: number;
  /** Examples per step (default 16; at least 2 for the ranking loss, which needs in-batch negatives). */
  readonly batchSize?: number;
  /** Passes over the data (default 1); or give `maxSteps`. */
  readonly epochs?: number;
  /** Optimiser steps in all (the data order repeats with a new shuffle each epoch); instead of `epochs`. */
  readonly maxSteps?: number;
  /** Peak learning rate (default 2e-5, sentence-transformers' `fit` default and its examples' usual value). */
  readonly learningRate?: number;
  /** Warm-up as a fraction of the steps (default 0.1, as sentence-transformers' training examples); or give `warmupSteps`. */
  readonly warmupRatio?: number;
  readonly warmupSteps?: number;
  /** AdamW's decoupled weight decay (default 0.01; none for biases and LayerNorms, as the Hugging Face Trainer). */
  readonly weightDecay?: number;
  /** Gradients are clipped to this global L2 norm (default 1.0; 0 turns clipping off). */
  readonly maxGradNorm?: number;
  /** Seeds the data order and the dropout masks (default 42, the Hugging Face Trainer's). */
  readonly seed?: number;
  /** Longest input in tokens (default: the model's `maxSeqLength`). */
  readonly maxSeqLength?: number;
  /** `false`: train with dropout off (the model stays in eval mode). Default true (the folder's dropout rates, seeded). */
  readonly dropout?: boolean;
  /** Runs `evaluate(model)` (model in eval mode) after every `every` steps and after the last. */
  readonly evaluation?: { readonly every: number; readonly evaluate: (model: import('@attnkit/sentence').SentenceEncoder) => Promise<Record<string, number>> | Record<string, number> };
  /** Writes `folder/checkpoint-<step>/` every `every` steps (if given), when stopped by `signal`, and at the end; keeps the newest `keep` (default 1). `source`: the folder the model was loaded from (tokenizer files are copied from it). */
  readonly checkpoint?: { readonly folder: string; readonly source: ModelSource; readonly every?: number; readonly keep?: number };
  /** A checkpoint folder (or the folder holding `checkpoint-<step>/` folders) to continue from: weights, optimiser, schedule, data position and history. */
  readonly resume?: string;
  readonly onProgress?: (progress: TrainingProgress) => void;
  /** Stops after the current step (writing a checkpoint if configured); the call then resolves with `aborted: true`. */
  readonly signal?: AbortSignal;
}

const KEYS = ['loss', 'scale', 'batchSize', 'epochs', 'maxSteps', 'learningRate', 'warmupRatio', 'warmupSteps', 'weightDecay', 'maxGradNorm', 'seed', 'maxSeqLength', 'dropout', 'evaluation', 'checkpoint', 'resume', 'onProgress', 'signal'] as const;

/** The options with defaults applied and every value checked. */
export interface ResolvedTrainingOptions {
  readonly loss: SentenceLoss;
  readonly scale: number;
  readonly batchSize: number;
  readonly epochs: number | undefined;
  readonly maxSteps: number | undefined;
  readonly learningRate: number;
  readonly warmup: { readonly ratio: number } | { readonly steps: number };
  readonly weightDecay: number;
  readonly maxGradNorm: number;
  readonly seed: number;
  readonly maxSeqLength: number;
  readonly dropout: boolean;
  readonly evaluation: TrainSentenceEncoderOptions['evaluation'];
  readonly checkpoint: { readonly folder: string; readonly source: ModelSource; readonly every: number | undefined; readonly keep: number } | undefined;
  readonly resume: string | undefined;
  readonly onProgress: TrainSentenceEncoderOptions['onProgress'];
  readonly signal: AbortSignal | undefined;
}

/**
 * Checks {@link TrainSentenceEncoderOptions} and applies the defaults. Unknown keys (a misspelled
 * option) and out-of-range numbers are `InvalidArgumentError`s naming the option.
 *
 * @example
 * resolveTrainingOptions({ loss: 'cosine-similarity', epochs: 2 }, 128).batchSize; // 16
 */
export function resolveTrainingOptions(options: TrainSentenceEncoderOptions, modelMaxSeqLength: number, caller = 'trainSentenceEncoder'): ResolvedTrainingOptions {
  checkObject(options, { caller, argument: 'options', expected: "an options object with at least { loss: 'multiple-negatives-ranking' | 'cosine-similarity' }" });
  checkOptionKeys(options, KEYS, caller);
  checkInteger(modelMaxSeqLength, { caller, argument: 'modelMaxSeqLength', min: 2 });
  const { loss } = options;
  if (!(SENTENCE_LOSSES as readonly unknown[]).includes(loss)) throw new InvalidArgumentError({ caller, argument: 'loss', expected: SENTENCE_LOSSES.map((l) => `'${l}'`).join(' or '), received: describeValue(loss) });
  const number = (argument: string, value: unknown, fallback: number, test: (n: number) => boolean, expected: string): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || !test(value)) throw new InvalidArgumentError({ caller, argument, expected, received: describeValue(value) });
    return value;
  };
  const ranking = loss === 'multiple-negatives-ranking';
  const batchSize = checkInteger(options.batchSize === undefined ? 16 : options.batchSize, { caller, argument: 'batchSize', min: ranking ? 2 : 1 });
  if (options.epochs !== undefined && options.maxSteps !== undefined) throw new InvalidArgumentError({ caller, argument: 'maxSteps', expected: 'absent when epochs is given (give one of them)', received: describeValue(options.maxSteps) });
  if (options.warmupRatio !== undefined && options.warmupSteps !== undefined) throw new InvalidArgumentError({ caller, argument: 'warmupSteps', expected: 'absent when warmupRatio is given (give one of them)', received: describeValue(options.warmupSteps) });
  const epochs = options.maxSteps === undefined ? checkInteger(options.epochs === undefined ? 1 : options.epochs, { caller, argument: 'epochs', min: 1 }) : undefined;
  const maxSteps = options.maxSteps === undefined ? undefined : checkInteger(options.maxSteps, { caller, argument: 'maxSteps', min: 1 });
  const warmup = options.warmupSteps !== undefined ? { steps: checkInteger(options.warmupSteps, { caller, argument: 'warmupSteps', min: 0 }) } : { ratio: number('warmupRatio', options.warmupRatio, 0.1, (n) => n >= 0 && n <= 1, 'a number from 0 to 1') };
  const evaluation = options.evaluation;
  if (evaluation !== undefined) {
    checkObject(evaluation, { caller, argument: 'evaluation', expected: 'an object { every, evaluate }' });
    checkOptionKeys(evaluation, ['every', 'evaluate'], caller, 'evaluation');
    checkInteger(evaluation.every, { caller, argument: 'evaluation.every', min: 1 });
    if (typeof evaluation.evaluate !== 'function') throw new InvalidArgumentError({ caller, argument: 'evaluation.evaluate', expected: 'a function (model) => Promise<Record<string, number>>', received: describeValue(evaluation.evaluate) });
  }
  let checkpoint: ResolvedTrainingOptions['checkpoint'];
  if (options.checkpoint !== undefined) {
    const given = checkObject(options.checkpoint, { caller, argument: 'checkpoint', expected: 'an object { folder, source, every?, keep? }' });
    checkOptionKeys(given, ['folder', 'source', 'every', 'keep'], caller, 'checkpoint');
    if (typeof given.folder !== 'string' || given.folder === '') throw new InvalidArgumentError({ caller, argument: 'checkpoint.folder', expected: 'a folder path (a non-empty string)', received: describeValue(given.folder) });
    checkModelSource(given.source, caller);
    checkpoint = { folder: given.folder, source: given.source, every: given.every === undefined ? undefined : checkInteger(given.every, { caller, argument: 'checkpoint.every', min: 1 }), keep: checkInteger(given.keep ?? 1, { caller, argument: 'checkpoint.keep', min: 1 }) };
  }
  if (options.resume !== undefined && (typeof options.resume !== 'string' || options.resume === '')) throw new InvalidArgumentError({ caller, argument: 'resume', expected: 'a checkpoint folder path (a non-empty string)', received: describeValue(options.resume) });
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw new InvalidArgumentError({ caller, argument: 'onProgress', expected: 'a function', received: describeValue(options.onProgress) });
  const signal = options.signal as { aborted?: unknown; throwIfAborted?: unknown } | undefined;
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean')) throw new InvalidArgumentError({ caller, argument: 'signal', expected: 'an AbortSignal (new AbortController().signal)', received: describeValue(signal) });
  return {
    loss,
    scale: number('scale', options.scale, 20, (n) => n > 0, 'a finite number > 0 (1 / temperature, e.g. 20)'),
    batchSize,
    epochs,
    maxSteps,
    learningRate: number('learningRate', options.learningRate, 2e-5, (n) => n > 0, 'a finite number > 0, e.g. 2e-5'),
    warmup,
    weightDecay: number('weightDecay', options.weightDecay, 0.01, (n) => n >= 0, 'a finite number ≥ 0'),
    maxGradNorm: number('maxGradNorm', options.maxGradNorm, 1, (n) => n >= 0, 'a finite number ≥ 0 (0: no clipping)'),
    seed: checkInteger(options.seed === undefined ? 42 : options.seed, { caller, argument: 'seed', min: 0, max: 2 ** 32 - 1 }),
    maxSeqLength: checkInteger(options.maxSeqLength === undefined ? modelMaxSeqLength : options.maxSeqLength, { caller, argument: 'maxSeqLength', min: 2, max: modelMaxSeqLength }),
    dropout: checkBoolean(options.dropout, { caller, argument: 'dropout', fallback: true }),
    evaluation,
    checkpoint,
    resume: options.resume,
    onProgress: options.onProgress,
    signal: options.signal,
  };
}
