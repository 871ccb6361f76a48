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
  checkTokenChoice(choice, caller);
  if (seen !== undefined && (typeof seen !== 'object' || seen === null || typeof (seen as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function')) throw new InvalidArgumentError({ caller, argument: 'seen', expected: 'the ids of the row so far (an iterable of integers) or undefined', received: describeValue(seen) });
  if (random !== undefined && typeof random !== 'function') throw new InvalidArgumentError({ caller, argument: 'random', expected: 'a function returning numbers in [0, 1) (seededRandom) or undefined', received: describeValue(random) });
  const scores = Float64Array.from(logits);
  if (choice.repetitionPenalty !== 1 && seen !== undefined) applyRepetitionPenalty(scores, checkedIds(seen, caller), choice.repetitionPenalty);
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

/** Each field of a {@link TokenChoice} in its range (those of `generate`'s options), or an `InvalidArgumentError` naming it. */
function checkTokenChoice(choice: TokenChoice, caller: string): void {
  checkObject(choice, { caller, argument: 'choice', expected: 'a TokenChoice { doSample, temperature, topK, topP, minP, repetitionPenalty }' });
  const { doSample, temperature, topK, topP, minP, repetitionPenalty } = choice;
  const fail = (argument: string, expected: string, value: unknown): never => {
    throw new InvalidArgumentError({ caller, argument: `choice.${argument}`, expected, received: describeValue(value) });
  };
  if (typeof doSample !== 'boolean') fail('doSample', 'a boolean', doSample);
  if (typeof temperature !== 'number' || !(temperature > 0 && Number.isFinite(temperature))) fail('temperature', 'a finite number > 0', temperature);
  if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 0) fail('topK', 'an integer ≥ 0 (0: off)', topK);
  if (typeof topP !== 'number' || !(topP > 0 && topP <= 1)) fail('topP', 'a number in (0, 1] (1: off)', topP);
  if (typeof minP !== 'number' || !(minP >= 0 && minP <= 1)) fail('minP', 'a number in [0, 1] (0: off)', minP);
  if (typeof repetitionPenalty !== 'number' || !(repetitionPenalty > 0 && Number.isFinite(repetitionPenalty))) fail('repetitionPenalty', 'a finite number > 0 (1: off)', repetitionPenalty);
}

/** The ids of `seen`, each an integer ≥ 0 (a hole or another value is an `InvalidArgumentError`). */
function checkedIds(seen: Iterable<number>, caller: string): number[] {
  const ids = Array.isArray(seen) ? Array.from(seen as number[]) : [...seen]; // Array.from reads a hole as undefined
  for (const id of ids) if (!Number.isInteger(id) || id < 0) throw new InvalidArgumentError({ caller, argument: 'seen', expected: 'the ids of the row so far (integers ≥ 0)', received: `a list holding ${describeValue(id)}` });
  return ids;
}

/** The index of the largest score (the first of equal ones). */
function argmax(scores: Float64Array): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if ((scores[i] as number) > (scores[best] as number)) best = i;
  return best;
}
