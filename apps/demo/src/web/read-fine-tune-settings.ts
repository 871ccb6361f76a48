import { PageInputError } from './page-input-error.js';
import { parsePairs, type SentencePair } from './parse-pairs.js';

/** What the fine-tuning panel trains with, read from its boxes. */
export interface FineTuneSettings {
  readonly pairs: SentencePair[];
  readonly steps: number;
  readonly learningRate: number;
}

export const MAX_STEPS = 1000;

/**
 * Reads the panel's boxes as typed: pairs (see {@link parsePairs}), steps (a whole number from 1
 * to {@link MAX_STEPS}) and learning rate (a number above 0 and at most 1, `1e-3` or `0.001`).
 * A box that does not read is a `PageInputError` naming it and quoting what it holds.
 *
 * @example
 * readFineTuneSettings({ pairs: 'a | b\nc | d', steps: '30', learningRate: '1e-3' }); // { pairs: [...2], steps: 30, learningRate: 0.001 }
 */
export function readFineTuneSettings(inputs: { readonly pairs: string; readonly steps: string; readonly learningRate: string }): FineTuneSettings {
  const pairs = parsePairs(inputs.pairs);
  const steps = Number(inputs.steps.trim());
  if (inputs.steps.trim() === '' || !Number.isInteger(steps) || steps < 1 || steps > MAX_STEPS) throw new PageInputError(`Steps: "${inputs.steps}" is not a whole number from 1 to ${MAX_STEPS}.`, { field: 'steps' });
  const learningRate = Number(inputs.learningRate.trim());
  if (inputs.learningRate.trim() === '' || !Number.isFinite(learningRate) || learningRate <= 0 || learningRate > 1) throw new PageInputError(`Learning rate: "${inputs.learningRate}" is not a number above 0 and at most 1 (for example 1e-3).`, { field: 'learningRate' });
  return { pairs, steps, learningRate };
}
