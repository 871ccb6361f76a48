import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { trainSentenceEncoder } from './train-sentence-encoder.js';
import { paraphrasePairs } from './synthetic-pairs.test-helper.js';
import { servedPath } from '@attnkit/test-utils';

// Training in Chromium on the backends a web page trains on: webgl (through SwiftShader here) and wasm.
const BACKENDS = (await availableBackends()).filter((b) => b === 'webgl' || b === 'wasm');
const STEPS = 20;

/** The embedded demo model (2 layers, 64 wide, 30 522 words), served by Vite's dev server. */
function tinyBert(): string {
  const here = import.meta.url; // not new URL(`...`, import.meta.url): Vite rewrites that pattern
  return servedPath(new URL('../../../models/assets/attnkit-tiny-bert/', here));
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b) / xs.length;

describe('trainSentenceEncoder in the browser', () => {
  it('has webgl and wasm to train on', () => {
    expect(BACKENDS.sort()).toEqual(['wasm', 'webgl']);
  });

  it.each(BACKENDS)('%s: the ranking loss falls on the embedded model, the tensor count stays flat from step to step, nothing is left behind', async (backend) => {
    await useBackend(backend);
    const model = await loadSentenceEncoder(tinyBert());
    const before = memory().numTensors;
    const counts: number[] = [];
    const times: number[] = [];
    // dropout off: the loss of a fixed set of batches then falls steadily, whatever the starting weights
    const history = await trainSentenceEncoder(model, paraphrasePairs(16), {
      loss: 'multiple-negatives-ranking', batchSize: 8, maxSteps: STEPS, learningRate: 1e-3, seed: 1, dropout: false,
      onProgress: () => (counts.push(memory().numTensors), times.push(performance.now())),
    });
    const warmStepsPerSecond = (STEPS - 1) / ((times.at(-1)! - times[0]!) / 1000); // after the first step (shader compilation on webgl)
    const [first, last] = [mean(history.losses.slice(0, 5)), mean(history.losses.slice(-5))];
    console.log(`${backend} attnkit-tiny-bert in Chromium: MNRL ${first.toFixed(3)} -> ${last.toFixed(3)} (mean of 5 steps) in ${STEPS} steps of 8 pairs, ${warmStepsPerSecond.toFixed(2)} steps/s after the first`);
    expect(history.steps).toBe(STEPS);
    expect(history.aborted).toBe(false);
    expect(history.losses.every(Number.isFinite)).toBe(true);
    expect(last).toBeLessThan(0.5 * first);
    expect(new Set(counts.slice(1)).size).toBe(1); // after the first step made the optimiser's moments, nothing grows
    expect(memory().numTensors).toBe(before); // moments freed, weights updated in place
    model.dispose();
  }, 300_000); // webgl through SwiftShader runs on the CPU: about 2 s a step on 2 busy cores
});
