import { describe, expect, it } from 'vitest';
import { PageInputError } from './page-input-error.js';
import { readFineTuneSettings } from './read-fine-tune-settings.js';

const PAIRS = 'a | b\nc | d';

describe('readFineTuneSettings', () => {
  it('reads the pairs, the steps and the learning rate as typed', () => {
    expect(readFineTuneSettings({ pairs: PAIRS, steps: ' 30 ', learningRate: '1e-3' })).toEqual({ pairs: [{ anchor: 'a', positive: 'b' }, { anchor: 'c', positive: 'd' }], steps: 30, learningRate: 0.001 });
    expect(readFineTuneSettings({ pairs: PAIRS, steps: '1000', learningRate: '0.5' })).toMatchObject({ steps: 1000, learningRate: 0.5 });
  });

  it.each(['', '0', '2.5', '1001', 'ten'])('steps %j: names the box and the range', (steps) => {
    expect(() => readFineTuneSettings({ pairs: PAIRS, steps, learningRate: '1e-3' })).toThrow(new PageInputError(`Steps: "${steps}" is not a whole number from 1 to 1000.`, { field: 'steps' }));
  });

  it.each(['', '0', '-1e-3', '2', 'fast', 'NaN'])('learning rate %j: names the box and gives an example', (learningRate) => {
    expect(() => readFineTuneSettings({ pairs: PAIRS, steps: '30', learningRate })).toThrow(`Learning rate: "${learningRate}" is not a number above 0 and at most 1 (for example 1e-3).`);
  });

  it('reports the pairs first, naming the line', () => {
    expect(() => readFineTuneSettings({ pairs: 'a | b\nno pair here', steps: 'x', learningRate: 'y' })).toThrow(/^Pairs, line 2: "no pair here" has no separator/);
  });
});
