import { describe, expect, it } from 'vitest';
import fixtures from '@attnkit/reference/fixtures/decoders.json' with { type: 'json' };
import { applyMinP, applyRepetitionPenalty, applyTemperature, applyTopK, applyTopP } from './logits-warpers.js';

// transformers 5.17's processors on one row of float64 scores (make_decoder_fixtures.py, "warpers"); null = removed (-inf).
const { scores, seen, cases } = (fixtures as unknown as { warpers: { scores: number[]; seen: number[]; cases: Record<string, (number | null)[]> } }).warpers;
const RUN: Record<string, (x: Float64Array) => void> = {
  'repetition_penalty 1.3': (x) => applyRepetitionPenalty(x, new Set(seen), 1.3),
  'temperature 0.7': (x) => applyTemperature(x, 0.7),
  'top_k 5': (x) => applyTopK(x, 5),
  'top_p 0.8': (x) => applyTopP(x, 0.8),
  'min_p 0.1': (x) => applyMinP(x, 0.1),
  'temperature 1.5, top_k 10, top_p 0.9, min_p 0.05': (x) => {
    applyTemperature(x, 1.5);
    applyTopK(x, 10);
    applyTopP(x, 0.9);
    applyMinP(x, 0.05);
  },
};

describe('the logits warpers equal transformers 5.17', () => {
  it('has the 6 reference cases', () => {
    expect(Object.keys(cases)).toEqual(Object.keys(RUN));
  });

  it.each(Object.keys(RUN))('%s', (name) => {
    const x = Float64Array.from(scores);
    RUN[name]!(x);
    const expected = cases[name]!;
    expect([...x].map((v) => (v === -Infinity ? null : v))).toEqual(expected.map((v) => (v === null ? null : expect.closeTo(v, 6))));
  });

  it('keep at least one token and leave the off values alone', () => {
    const x = Float64Array.of(1, 5, 2);
    applyTopP(x, 1e-9);
    applyMinP(x, 1);
    expect([...x]).toEqual([-Infinity, 5, -Infinity]);
    const y = Float64Array.of(1, 5, 2);
    applyTopK(y, 0);
    applyTopP(y, 1);
    applyMinP(y, 0);
    expect([...y]).toEqual([1, 5, 2]);
  });

  it('keep ties at the k-th score, as transformers (scores < the k-th are removed)', () => {
    const x = Float64Array.of(3, 1, 3, 2, 3);
    applyTopK(x, 2);
    expect([...x]).toEqual([3, -Infinity, 3, -Infinity, 3]);
  });
});
