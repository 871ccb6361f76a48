import { CheckpointError } from './checkpoint-error.js';

/** One evaluation of a run: the step after which it ran and what `evaluate` returned. */
export interface Evaluation {
  readonly step: number;
  readonly epoch: number;
  readonly metrics: Readonly<Record<string, number>>;
}

/**
 * Where a run stands, as `trainer_state.json` of a training checkpoint holds it (plain JSON).
 * `step` optimiser steps are done; the next batch is batch `batchInEpoch` of epoch `epoch`'s order,
 * which `seed`, `batchSize` and the data fix (`dataFingerprint` checks it is the same data).
 */
export interface TrainerState {
  readonly format: 'attnkit-trainer-state';
  readonly version: 1;
  readonly step: number;
  readonly totalSteps: number;
  readonly epoch: number;
  readonly batchInEpoch: number;
  readonly seed: number;
  readonly batchSize: number;
  readonly loss: string;
  readonly examples: number;
  readonly dataFingerprint: string;
  /** The loss of every step so far (index `i`: step `i + 1`). */
  readonly losses: readonly number[];
  /** The learning rate each step used. */
  readonly learningRates: readonly number[];
  readonly evaluations: readonly Evaluation[];
}

const INTEGER_FIELDS = ['step', 'totalSteps', 'epoch', 'batchInEpoch', 'seed', 'batchSize', 'examples'] as const;

/**
 * Reads `trainer_state.json` (already parsed) and checks every field, so a hand-edited or
 * truncated state is a {@link CheckpointError} naming the field rather than a run that silently
 * continues from the wrong place.
 *
 * @example
 * const state = parseTrainerState(JSON.parse(text), './checkpoints/checkpoint-40');
 */
export function parseTrainerState(json: unknown, folder: string, caller = 'trainSentenceEncoder'): TrainerState {
  const fail = (what: string): never => {
    throw new CheckpointError(caller, folder, `${folder}/trainer_state.json ${what}; it was not written by this version of @attnkit/train, or it was edited.`);
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('is not a JSON object');
  const state = json as Record<string, unknown>;
  if (state['format'] !== 'attnkit-trainer-state' || state['version'] !== 1) fail(`has format ${JSON.stringify(state['format'])} version ${JSON.stringify(state['version'])}; expected "attnkit-trainer-state" version 1`);
  for (const field of INTEGER_FIELDS) {
    const value = state[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(`has ${field} ${JSON.stringify(value)}; expected an integer ≥ 0`);
  }
  if (typeof state['loss'] !== 'string' || typeof state['dataFingerprint'] !== 'string') fail('has no loss or dataFingerprint string');
  for (const field of ['losses', 'learningRates'] as const) {
    const list = state[field];
    if (!Array.isArray(list) || list.length !== state['step'] || !list.every((v) => typeof v === 'number')) fail(`has ${field} that is not a list of step = ${String(state['step'])} numbers`);
  }
  if (!Array.isArray(state['evaluations'])) fail('has evaluations that is not a list');
  return state as unknown as TrainerState;
}
