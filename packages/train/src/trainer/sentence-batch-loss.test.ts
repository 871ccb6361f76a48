import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { memory, variableGrads, type Tensor2D } from '@tensorflow/tfjs-core';
import { join } from 'node:path';
import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { describe, expect, it } from 'vitest';
import { cosineSimilarityLoss } from '../losses/cosine-similarity-loss.js';
import { multipleNegativesRankingLoss } from '../losses/multiple-negatives-ranking-loss.js';
import { sentenceBatchLoss } from './sentence-batch-loss.js';
import { SENTENCE_FIXTURES } from './synthetic-pairs.test-helper.js';

describe('sentenceBatchLoss', () => {
  it('equals the loss of model.encode embeddings (eval mode), and its gradients leave no tensor behind', async () => {
    await useBackend('cpu');
    const model = await loadSentenceEncoder(join(SENTENCE_FIXTURES, 'bert-dense'));
    const anchors = ['a cat sits', 'the dog runs fast', 'hello'];
    const positives = ['a kitten is sitting', 'a puppy running', 'hi there, world'];
    const negatives = ['stocks fell', 'rain today', 'a red car'];
    const [a, p, n] = await Promise.all([anchors, positives, negatives].map((t) => model.encode(t) as Promise<Tensor2D>));
    const expected = [(await multipleNegativesRankingLoss(a!, p!, { hardNegatives: [n!] }).data())[0]!, (await cosineSimilarityLoss(a!, p!, [0.9, 0.1, 0.5]).data())[0]!];
    const before = memory().numTensors;
    const got = [
      sentenceBatchLoss(model, { columns: [anchors, positives, negatives], labels: [] }, { loss: 'multiple-negatives-ranking', scale: 20, maxSeqLength: 16 }),
      sentenceBatchLoss(model, { columns: [anchors, positives], labels: [0.9, 0.1, 0.5] }, { loss: 'cosine-similarity', scale: 20, maxSeqLength: 16 }),
    ];
    expect((await got[0]!.data())[0]).toBeCloseTo(expected[0]!, 5);
    expect((await got[1]!.data())[0]).toBeCloseTo(expected[1]!, 5);
    got.forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
    const { value, grads } = variableGrads(() => sentenceBatchLoss(model, { columns: [anchors, positives], labels: [] }, { loss: 'multiple-negatives-ranking', scale: 20, maxSeqLength: 16 }), model.encoder.trainableParameters());
    expect(Object.keys(grads).length).toBeGreaterThan(30);
    value.dispose();
    Object.values(grads).forEach((g) => g.dispose());
    expect(memory().numTensors).toBe(before);
    [a, p, n].forEach((t) => t!.dispose());
    model.dispose();
  });
});

describe('sentenceBatchLoss input checks', () => {
  it('refuses a batch without columns, uneven columns, missing labels for the cosine loss, and a bad loss, scale or maxSeqLength', async () => {
    await useBackend('cpu');
    const model = await loadSentenceEncoder(join(SENTENCE_FIXTURES, 'bert-dense'));
    const options = { loss: 'multiple-negatives-ranking', scale: 20, maxSeqLength: 16 } as const;
    const before = memory().numTensors;
    expect(() => sentenceBatchLoss(model, {} as never, options)).toThrow("sentenceBatchLoss: 'batch.columns' must be at least two columns of texts (anchor and positive, or a and b); received undefined.");
    expect(() => sentenceBatchLoss(model, { columns: [['a', 'b'], ['c']], labels: [] }, options)).toThrow(/'batch.columns\[1\]' must be a list of 2 texts \(strings\), as long as the first column/);
    expect(() => sentenceBatchLoss(model, { columns: [['a'], ['b']], labels: [] }, { ...options, loss: 'cosine-similarity' })).toThrow(/'batch.labels' must be 1 finite labels, one per example/);
    expect(() => sentenceBatchLoss(model, { columns: [['a'], ['b']], labels: [] }, { ...options, loss: 'x' as never })).toThrow(/'loss' must be 'multiple-negatives-ranking' or 'cosine-similarity'/);
    expect(() => sentenceBatchLoss(model, { columns: [['a'], ['b']], labels: [] }, { ...options, maxSeqLength: null as never })).toThrow(/'maxSeqLength' must be an integer ≥ 2; received null/);
    expect(() => sentenceBatchLoss(model, { columns: [['a'], ['b']], labels: [] }, { ...options, scale: Number.NaN })).toThrow(/'scale' must be a finite number > 0/);
    expect(memory().numTensors).toBe(before);
    model.dispose();
  });
});
