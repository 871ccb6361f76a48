import { InvalidArgumentError, checkObject, describeValue } from '@attnkit/errors';
import { applyMinP, applyRepetitionPenalty, applyTemperature, applyTopK, applyTopP, finiteIndices, softmaxOf } from './logits-warpers.js';

/** How the next token is chosen from a row of logits. */
export interface TokenChoice {
  /** Sample (with the warpers below) instead of taking the most likely token. */
  readonly doSample: boolean;
  readonly temperature: number;
  /** 0: off. */
  readonly topK: number;
  /** 1: off. */
  readonly topP: number;
  /** 0: off. */
  readonly minP: number;
  /** 1: off. */
  readonly repetitionPenalty: number;
}

/**
 * The next token of one row, as transformers' `generate` picks it: the repetition penalty on the
 * tokens of the row so far (`seen`), then the most likely token (greedy; the first of equal scores, as
 * `argmax`) or, when sampling, temperature, top-k, top-p and min-p, and one draw of `random` from the
 * softmax of what is left. `logits [V]` is not changed (the scores are a float64 copy).
 *
 * @example
 * const token = chooseToken(logits.subarray(b * V, (b + 1) * V), choice, seen[b], random);
 */
export function chooseToken(logits: Float32Array, choice: TokenChoice, seen: Iterable<number> | undefined, random: (() => number) | undefined): number {
  const caller = 'chooseToken';
  if (!(logits instanceof Float32Array) || logits.length === 0) throw new InvalidArgumentError({ caller, argument: 'logits', expected: 'a non-empty Float32Array [V] (one row of logits)', received: describeValue(logits) });
  checkObject(choice, { caller, argument: 'choice', expected: 'a TokenChoice { doSample, temperature, topK, topP, minP, repetitionPenalty }' });
  const scores = Float64Array.from(logits);
  if (choice.repetitionPenalty !== 1 && seen !== undefined) applyRepetitionPenalty(scores, seen, choice.repetitionPenalty);
  if (!choice.doSample || random === undefined) return argmax(scores);
  if (choice.temperature !== 1) applyTemperature(scores, choice.temperature);
  applyTopK(scores, choice.topK);
  applyTopP(scores, choice.topP);
  applyMinP(scores, choice.minP);
  const kept = finiteIndices(scores);
  const probabilities = softmaxOf(scores, kept);
  let draw = random();
  for (let j = 0; j < kept.length; j++) {
    draw -= probabilities[j] as number;
    if (draw < 0) return kept[j] as number;
  }
  return kept[kept.length - 1] as number; // rounding left a sliver of the last
}

/** The index of the largest score (the first of equal ones). */
function argmax(scores: Float64Array): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if ((scores[i] as number) > (scores[best] as number)) best = i;
  return best;
}
