import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { trainSentenceEncoder } from './train-sentence-encoder.js';
import { SENTENCE_FIXTURES } from './synthetic-pairs.test-helper.js';

beforeAll(() => useBackend('cpu'));

describe("trainSentenceEncoder on a model loaded with quantize: 'int8'", () => {
  it('refuses it with a typed error, with dropout on or off (off, it would silently train only the float parts), changing nothing', async () => {
    const model = await loadSentenceEncoder(join(SENTENCE_FIXTURES, 'bert-dense'), { quantize: 'int8' });
    const data = Array.from({ length: 8 }, (_, i) => ({ anchor: `text ${i} a`, positive: `text ${i} b` }));
    const before = memory().numTensors;
    const weights = await Promise.all(model.encoder.parameters().map((p) => p.data()));
    for (const dropout of [true, false]) {
      const error = await trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, epochs: 1, dropout }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toBe("trainSentenceEncoder: 'model' must be a float model (Int8Linear layers are inference only: int8 weights have no gradient); received an int8 model (13 Int8Linear layers: encoder.layer.0.attention.self.query, encoder.layer.0.attention.self.key, ...). Load it without quantize: 'int8' to train it; quantize when loading the saved folder for inference.");
    }
    expect(memory().numTensors).toBe(before);
    expect(await Promise.all(model.encoder.parameters().map((p) => p.data()))).toEqual(weights);
    expect(model.encoder.training).toBe(false);
    model.dispose();
  });
});
