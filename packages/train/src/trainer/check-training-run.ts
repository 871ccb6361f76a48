import { Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkAbortSignal, checkInteger, checkObject, describeValue } from '@attnkit/errors';
import type { TrainingRun } from './training-loop.js';

const CALLER = 'runTrainingLoop';

/**
 * Every field of a {@link TrainingRun}, checked before the loop allocates anything: an
 * `InvalidArgumentError` naming the field (`run.maxGradNorm`, `run.identity.batchSize`, ...), what it
 * must be and what it is. Optional fields (`save`, `saveEvery`, `restore`, `evaluation`, `onProgress`,
 * `signal`) may be `undefined`; `null` is no value for any of them.
 *
 * @example
 * checkTrainingRun(run); // then runTrainingLoop's steps
 */
export function checkTrainingRun(run: TrainingRun): TrainingRun {
  checkObject(run, { caller: CALLER, argument: 'run', expected: 'a training run { caller, parameters, plan, batchLoss, ... }' });
  const fail = (field: string, expected: string, value: unknown): never => {
    throw new InvalidArgumentError({ caller: CALLER, argument: `run.${field}`, expected, received: describeValue(value) });
  };
  const integer = (field: string, value: unknown, min: number) => checkInteger(value, { caller: CALLER, argument: `run.${field}`, min, max: Number.MAX_SAFE_INTEGER });
  const number = (field: string, value: unknown, expected: string, ok: (v: number) => boolean) => (typeof value === 'number' && ok(value) ? value : fail(field, expected, value));
  const fn = (field: string, value: unknown, optional = false) => ((optional && value === undefined) || typeof value === 'function' ? value : fail(field, optional ? 'a function or undefined' : 'a function', value));
  if (typeof run.caller !== 'string' || run.caller === '') fail('caller', 'the name of the trainer, for messages (a non-empty string)', run.caller);
  if (!Array.isArray(run.parameters)) fail('parameters', 'a list of [name, Variable] (the trainable parameters)', run.parameters);
  Array.from(run.parameters as unknown[]).forEach((entry, i) => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !(entry[1] instanceof Variable)) fail(`parameters[${i}]`, 'a [name, Variable] pair', entry);
  });
  fn('noDecay', run.noDecay);
  fn('plan', run.plan);
  fn('batchLoss', run.batchLoss);
  fn('setMode', run.setMode);
  const totalSteps = integer('totalSteps', run.totalSteps, 0);
  integer('warmupSteps', run.warmupSteps, 0);
  number('learningRate', run.learningRate, 'a finite number ≥ 0', (v) => v >= 0 && Number.isFinite(v));
  number('weightDecay', run.weightDecay, 'a finite number ≥ 0', (v) => v >= 0 && Number.isFinite(v));
  number('maxGradNorm', run.maxGradNorm, 'a number ≥ 0 (0: no clipping)', (v) => v >= 0);
  integer('seed', run.seed, Number.MIN_SAFE_INTEGER);
  if (typeof run.dropout !== 'boolean') fail('dropout', 'a boolean', run.dropout);
  const identity = checkObject(run.identity, { caller: CALLER, argument: 'run.identity', expected: 'an object { loss, examples, dataFingerprint, batchSize }' });
  if (typeof identity.loss !== 'string') fail('identity.loss', 'the loss name (a string)', identity.loss);
  if (typeof identity.dataFingerprint !== 'string') fail('identity.dataFingerprint', 'a string', identity.dataFingerprint);
  integer('identity.examples', identity.examples, 0);
  integer('identity.batchSize', identity.batchSize, 1);
  fn('save', run.save, true);
  if (run.saveEvery !== undefined) integer('saveEvery', run.saveEvery, 1);
  fn('restore', run.restore, true);
  if (run.evaluation !== undefined) {
    const evaluation = checkObject(run.evaluation, { caller: CALLER, argument: 'run.evaluation', expected: 'an object { every, evaluate } or undefined' });
    integer('evaluation.every', evaluation.every, 1);
    fn('evaluation.evaluate', evaluation.evaluate);
  }
  fn('onProgress', run.onProgress, true);
  checkAbortSignal(run.signal, { caller: CALLER, argument: 'run.signal' });
  if (totalSteps > 0 && run.parameters.length === 0) fail('parameters', 'at least one trainable parameter', run.parameters);
  return run;
}
