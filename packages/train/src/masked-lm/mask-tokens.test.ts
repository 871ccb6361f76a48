import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { seededRandom } from '../trainer/seeded-random.js';
import { maskTokens } from './mask-tokens.js';

const SPECIAL = new Set([0, 1, 2]); // [PAD], [CLS], [SEP]
const MASK = 3;
const options = (seed: number) => ({ vocabSize: 1000, maskTokenId: MASK, isSpecial: (id: number) => SPECIAL.has(id), random: seededRandom(seed) });
/** `rows` rows of [CLS] w… [SEP] [PAD]…: words are ids 10..999; the last `padding` columns are padding. */
function batch(rows: number, length: number, padding: number) {
  const inputIds = Array.from({ length: rows }, (_, b) => Array.from({ length }, (_, t) => (t === 0 ? 1 : t === length - padding - 1 ? 2 : t >= length - padding ? 0 : 10 + ((b * 31 + t * 7) % 990))));
  const attentionMask = inputIds.map((row) => row.map((_, t) => (t < length - padding ? 1 : 0)));
  return { inputIds, attentionMask };
}

describe('maskTokens', () => {
  it('selects 15 % of the ordinary tokens, never special tokens or padding; 80 % [MASK], 10 % random, 10 % kept', () => {
    const { inputIds, attentionMask } = batch(400, 64, 10);
    const out = maskTokens(inputIds, attentionMask, options(1));
    const eligible = 400 * (64 - 10 - 2);
    const selected = out.positions.length;
    expect(Math.abs(selected / eligible - 0.15)).toBeLessThan(0.01); // ~3 200 of 20 800: σ ≈ 0.0025
    let [masked, kept, replaced] = [0, 0, 0];
    out.positions.forEach((flat, i) => {
      const [b, t] = [Math.floor(flat / 64), flat % 64];
      const original = inputIds[b]![t]!;
      expect(SPECIAL.has(original) || attentionMask[b]![t] === 0).toBe(false);
      expect(out.labels[b]![t]).toBe(original);
      expect(out.targets[i]).toBe(original);
      const now = out.inputIds[b]![t]!;
      if (now === MASK) masked += 1;
      else if (now === original) kept += 1;
      else replaced += 1;
    });
    expect(Math.abs(masked / selected - 0.8)).toBeLessThan(0.03);
    expect(Math.abs(kept / selected - 0.1)).toBeLessThan(0.02); // a random id equal to the original counts as kept: 0.1 % of 10 %
    expect(Math.abs(replaced / selected - 0.1)).toBeLessThan(0.02);
    const unselected = out.labels.flat().filter((l) => l === -100).length;
    expect(unselected).toBe(400 * 64 - selected);
    // unselected positions are untouched, and the input was not changed
    out.inputIds.forEach((row, b) => row.forEach((id, t) => out.labels[b]![t] === -100 && expect(id).toBe(inputIds[b]![t])));
    expect(inputIds).toEqual(batch(400, 64, 10).inputIds);
  });

  it('is reproducible with a seeded generator and differs with another seed', () => {
    const { inputIds, attentionMask } = batch(8, 16, 3);
    expect(maskTokens(inputIds, attentionMask, options(7))).toEqual(maskTokens(inputIds, attentionMask, options(7)));
    expect(maskTokens(inputIds, attentionMask, options(7)).positions).not.toEqual(maskTokens(inputIds, attentionMask, options(8)).positions);
  });

  it('selects one position when the draw selected none, and none when no token is eligible', () => {
    const { inputIds, attentionMask } = batch(1, 4, 0); // [CLS] w w [SEP]: two words
    const never = maskTokens(inputIds, attentionMask, { ...options(1), probability: 0 });
    expect(never.positions).toHaveLength(1);
    expect([1, 2]).toContain(never.positions[0]);
    const specials = maskTokens([[1, 2, 0]], [[1, 1, 0]], options(1));
    expect(specials.positions).toEqual([]);
  });

  it('honours the shares it is given', () => {
    const { inputIds, attentionMask } = batch(50, 32, 0);
    const all = maskTokens(inputIds, attentionMask, { ...options(2), probability: 1, maskReplaceProbability: 1, randomReplaceProbability: 0 });
    expect(all.positions).toHaveLength(50 * 30);
    expect(all.positions.every((flat) => all.inputIds[Math.floor(flat / 32)]![flat % 32] === MASK)).toBe(true);
  });

  it('refuses bad input with typed errors naming the argument', () => {
    const { inputIds, attentionMask } = batch(2, 5, 1);
    expect(() => maskTokens(inputIds, attentionMask, { ...options(1), probability: 1.5 })).toThrow(/probability.*a number from 0 to 1/);
    expect(() => maskTokens(inputIds, attentionMask, { ...options(1), maskReplaceProbability: 0.9, randomReplaceProbability: 0.2 })).toThrow(/randomReplaceProbability/);
    expect(() => maskTokens(inputIds, attentionMask, { ...options(1), maskTokenId: 1000 })).toThrow(/maskTokenId/);
    expect(() => maskTokens(inputIds, attentionMask.slice(1), options(1))).toThrow(/attentionMask.*a list of 2 rows/);
    expect(() => maskTokens([[1, 5], [1]], [[1, 1], [1]], options(1))).toThrow(/inputIds\[1\].*a padded batch/);
    expect(() => maskTokens([[1, 5000]], [[1, 1]], options(1))).toThrow(/inputIds\[0\]\[1\].*an id in \[0, 1000\)/);
    expect(() => maskTokens(inputIds, attentionMask, { ...options(1), random: 4 as never })).toThrow(InvalidArgumentError);
  });
});
