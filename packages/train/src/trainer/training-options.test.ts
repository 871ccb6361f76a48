import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { resolveTrainingOptions } from './training-options.js';

describe('resolveTrainingOptions', () => {
  it('refuses a null number (it used to read as the default) and keeps the defaults for left-out ones', () => {
    for (const key of ['batchSize', 'epochs', 'seed', 'maxSeqLength', 'learningRate'] as const) {
      expect(() => resolveTrainingOptions({ loss: 'cosine-similarity', [key]: null as never }, 128), key).toThrow(InvalidArgumentError);
    }
    expect(() => resolveTrainingOptions({ loss: 'cosine-similarity', seed: null as never }, 128)).toThrow(/^trainSentenceEncoder: 'seed' must be an integer/);
    const resolved = resolveTrainingOptions({ loss: 'cosine-similarity' }, 128);
    expect([resolved.batchSize, resolved.epochs, resolved.seed, resolved.maxSeqLength]).toEqual([16, 1, 42, 128]);
  });
});

describe('resolveTrainingOptions modelMaxSeqLength', () => {
  it("refuses a model length that is no integer ≥ 2 (the model's max_seq_length)", () => {
    expect(() => resolveTrainingOptions({ loss: 'multiple-negatives-ranking' }, Number.NaN)).toThrow("trainSentenceEncoder: 'modelMaxSeqLength' must be an integer ≥ 2; received number NaN.");
    expect(() => resolveTrainingOptions({ loss: 'multiple-negatives-ranking' }, { dispose: () => undefined } as never)).toThrow(InvalidArgumentError);
  });
});
