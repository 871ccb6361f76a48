import '@tensorflow/tfjs-core/dist/register_all_gradients'; // training needs tfjs' gradient functions
import { losses, memory, oneHot, tidy, train, type Scalar } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { Linear } from '@attnkit/nn';
import { loadBert } from './load-bert.js';

const FOLDER = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/bert-grad/', import.meta.url).pathname);

/** Sentences of ids 5..49 (0 = padding) labelled by whether id 7 occurs. */
function batch(step: number, size = 16, length = 7): { inputIds: number[][]; attentionMask: number[][]; labels: number[] } {
  let state = (step * 2246822519 + 7) >>> 0;
  const next = (n: number) => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 8) % n;
  const inputIds = Array.from({ length: size }, () => {
    const real = 3 + next(length - 2);
    return Array.from({ length }, (_, t) => (t >= real ? 0 : next(4) === 0 ? 7 : 8 + next(42)));
  });
  return { inputIds, attentionMask: inputIds.map((row) => row.map((id) => (id === 0 ? 0 : 1))), labels: inputIds.map((row) => (row.includes(7) ? 1 : 0)) };
}

describe('fine-tuning a loaded BertModel with a classification head', () => {
  it('the loss falls on wasm and no tensor grows across steps', async () => {
    await useBackend('wasm', { numThreads: 1 }); // one thread: a training loop on 2 threads stalls when CI runs another task beside it
    const model = await loadBert(FOLDER);
    const head = new Linear(model.config.hiddenSize, 2, { seed: 1 });
    model.train();
    const optimizer = train.adamax(1e-2);
    const parameters = [...model.trainableParameters(), ...head.trainableParameters()];
    const lossAt = (step: number) => {
      const { inputIds, attentionMask, labels } = batch(step);
      return tidy(() => {
        const { lastHiddenState, poolerOutput } = model.forward({ inputIds, attentionMask });
        lastHiddenState.dispose();
        return losses.softmaxCrossEntropy(oneHot(labels, 2), head.forward(poolerOutput)) as Scalar;
      });
    };
    const seen: number[] = [];
    let afterFirst = 0;
    for (let step = 0; step < 60; step++) {
      const loss = optimizer.minimize(() => lossAt(step), true, parameters)!;
      seen.push((await loss.data())[0]!);
      loss.dispose();
      if (step === 0) afterFirst = memory().numTensors;
    }
    expect(memory().numTensors).toBe(afterFirst);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b) / xs.length;
    expect(mean(seen.slice(-10))).toBeLessThan(0.6 * mean(seen.slice(0, 10)));
    optimizer.dispose();
    head.dispose();
    model.dispose();
  }, 120_000);
});
