import { describe, expect, it } from 'vitest';
import { softmaxCases } from './softmax-cases.js';

describe('softmaxCases', () => {
  it('references are distributions over 6 keys, with exact zeros at every third (blocked) key when masked', () => {
    for (const testCase of softmaxCases) {
      const probabilities = testCase.reference();
      for (let row = 0; row < probabilities.length / 6; row++) {
        const sum = probabilities.slice(row * 6, row * 6 + 6).reduce((s, p) => s + p, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(1e-12);
      }
      if (testCase.name.startsWith('masked')) probabilities.forEach((p, i) => expect(i % 3 === 1 ? p : 1).toBe(i % 3 === 1 ? 0 : 1));
    }
  });
});
