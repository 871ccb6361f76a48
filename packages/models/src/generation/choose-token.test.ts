import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { chooseToken, type TokenChoice } from './choose-token.js';
import { seededRandom } from './seeded-random.js';

const LOGITS = new Float32Array([0.5, 2, 1, -1]);
const GREEDY: TokenChoice = { doSample: false, temperature: 1, topK: 0, topP: 1, minP: 0, repetitionPenalty: 1 };

describe('chooseToken', () => {
  it('takes the most likely token greedily, and the repetition penalty lowers the tokens seen (2 / 2.5 < 1)', () => {
    expect(chooseToken(LOGITS, GREEDY, undefined, undefined)).toBe(1);
    expect(chooseToken(LOGITS, { ...GREEDY, repetitionPenalty: 2.5 }, [1], undefined)).toBe(2);
    expect(chooseToken(LOGITS, { ...GREEDY, repetitionPenalty: 2.5 }, new Set([1]), undefined)).toBe(2);
  });

  it.each([
    ['doSample', 'x', /'choice.doSample' must be a boolean/],
    ['temperature', 0, /'choice.temperature' must be a finite number > 0/],
    ['temperature', Number.NaN, /'choice.temperature'/],
    ['topK', -1, /'choice.topK' must be an integer ≥ 0/],
    ['topK', 1.5, /'choice.topK'/],
    ['topP', 0, /'choice.topP' must be a number in \(0, 1\]/],
    ['minP', null, /'choice.minP' must be a number in \[0, 1\]/],
    ['repetitionPenalty', -1, /'choice.repetitionPenalty' must be a finite number > 0/],
  ] as const)('refuses choice.%s = %s, naming it (as generate refuses the option)', (key, value, message) => {
    expect(() => chooseToken(LOGITS, { ...GREEDY, doSample: true, [key]: value }, undefined, seededRandom(1))).toThrow(InvalidArgumentError);
    expect(() => chooseToken(LOGITS, { ...GREEDY, doSample: true, [key]: value }, undefined, seededRandom(1))).toThrow(message);
  });

  it('refuses seen that is no iterable of ids (a sparse list, a number) and random that is no function', () => {
    const penalised = { ...GREEDY, repetitionPenalty: 1.2 };
    expect(() => chooseToken(LOGITS, penalised, [1, , 2] as number[], undefined)).toThrow(/'seen' must be the ids of the row so far \(integers ≥ 0\); received a list holding undefined/); // eslint-disable-line no-sparse-arrays
    expect(() => chooseToken(LOGITS, penalised, 3 as never, undefined)).toThrow(/'seen' must be the ids of the row so far/);
    expect(() => chooseToken(LOGITS, penalised, null as never, undefined)).toThrow(/'seen'/);
    expect(() => chooseToken(LOGITS, { ...GREEDY, doSample: true }, undefined, 0.5 as never)).toThrow(/chooseToken: 'random' must be a function/);
  });
});
