import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { loadBertForMaskedLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { paraphrasePairs } from '../trainer/synthetic-pairs.test-helper.js';
import { trainMaskedLanguageModel } from './train-masked-language-model.js';
import { servedPath } from '@attnkit/test-utils';

// Masked-LM pre-training in Chromium on the backends a web page trains on: webgl (SwiftShader here) and wasm.
const BACKENDS = (await availableBackends()).filter((b) => b === 'webgl' || b === 'wasm');
const STEPS = 20;

/** The embedded demo model (2 layers, 64 wide, 30 522 words), served by Vite's dev server. */
function tinyBert(): string {
  const here = import.meta.url; // not new URL(`...`, import.meta.url): Vite rewrites that pattern
  return servedPath(new URL('../../../models/assets/attnkit-tiny-bert/', here));
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b) / xs.length;

describe('trainMaskedLanguageModel in the browser', () => {
  it('has webgl and wasm to train on', () => {
    expect(BACKENDS.sort()).toEqual(['wasm', 'webgl']);
  });

  it.each(BACKENDS)('%s: the masked-LM loss falls on the embedded model, the tensor count stays flat, nothing is left behind', async (backend) => {
    await useBackend(backend);
    const model = await loadBertForMaskedLM(tinyBert(), { seed: 1 });
    const tokenizer = await loadTokenizer(tinyBert());
    const before = memory().numTensors;
    const counts: number[] = [];
    const times: number[] = [];
    const history = await trainMaskedLanguageModel(model, tokenizer, paraphrasePairs(32).map((p) => p.anchor), {
      batchSize: 16, maxSteps: STEPS, learningRate: 2e-3, seed: 1, dropout: false,
      onProgress: () => (counts.push(memory().numTensors), times.push(performance.now())),
    });
    const warmStepsPerSecond = (STEPS - 1) / ((times.at(-1)! - times[0]!) / 1000);
    const [first, last] = [mean(history.losses.slice(0, 5)), mean(history.losses.slice(-5))];
    console.log(`${backend} attnkit-tiny-bert in Chromium: masked-LM loss ${first.toFixed(3)} -> ${last.toFixed(3)} (mean of 5 steps) in ${STEPS} steps of 16 texts, ${warmStepsPerSecond.toFixed(2)} steps/s after the first`);
    expect(history.losses.every(Number.isFinite)).toBe(true);
    expect(last).toBeLessThan(first - 1);
    expect(new Set(counts.slice(1)).size).toBe(1);
    expect(memory().numTensors).toBe(before);
    model.dispose();
  }, 300_000);
});
