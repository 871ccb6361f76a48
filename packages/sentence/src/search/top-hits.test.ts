import { describe, expect, it } from 'vitest';
import { TopHits } from './top-hits.js';

describe('TopHits', () => {
  it('keeps the best topK of candidates added chunk by chunk, best first, ties in corpus order', () => {
    const best = new TopHits(3);
    [[5, 0.1], [2, 0.9], [7, 0.5], [1, 0.5], [9, 0.95], [4, -1], [3, 0.5]].forEach(([id, score]) => best.add(id!, score!));
    expect(best.sorted()).toEqual([{ corpusId: 9, score: 0.95 }, { corpusId: 2, score: 0.9 }, { corpusId: 1, score: 0.5 }]);
  });

  it('gives all the candidates when there are fewer than topK', () => {
    const best = new TopHits(10);
    best.add(3, 1);
    best.add(0, 2);
    expect(best.sorted()).toEqual([{ corpusId: 0, score: 2 }, { corpusId: 3, score: 1 }]);
  });
});
