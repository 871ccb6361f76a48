import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { loadBertForMaskedLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { paraphrasePairs, SENTENCE_FIXTURES } from '../trainer/synthetic-pairs.test-helper.js';
import { evaluateMaskedLM } from './evaluate-masked-lm.js';
import { trainMaskedLanguageModel } from './train-masked-language-model.js';

const SMALL = join(SENTENCE_FIXTURES, 'bert-dense');
const texts = paraphrasePairs(64).map((p) => p.anchor);

beforeAll(() => useBackend('cpu'));

describe('evaluateMaskedLM', () => {
  it('is deterministic for a seed, improves with training on the same kind of text, and leaves no tensor', async () => {
    const tokenizer = await loadTokenizer(SMALL);
    const model = await loadBertForMaskedLM(SMALL, { seed: 1 });
    const before = memory().numTensors;
    const first = await evaluateMaskedLM(model, tokenizer, texts.slice(48), { seed: 3 });
    expect(await evaluateMaskedLM(model, tokenizer, texts.slice(48), { seed: 3 })).toEqual(first);
    expect(first.tokens).toBeGreaterThan(0);
    expect(first.perplexity).toBeCloseTo(Math.exp(first.loss), 6);
    expect(memory().numTensors).toBe(before);
    await trainMaskedLanguageModel(model, tokenizer, texts.slice(0, 48), { batchSize: 16, maxSteps: 30, learningRate: 3e-3, dropout: false });
    const after = await evaluateMaskedLM(model, tokenizer, texts.slice(48), { seed: 3 });
    expect(after.tokens).toBe(first.tokens);
    expect(after.loss).toBeLessThan(first.loss - 1);
    expect(after.accuracy).toBeGreaterThan(first.accuracy);
    model.dispose();
  }, 120_000);

  it('refuses bad arguments', async () => {
    const tokenizer = await loadTokenizer(SMALL);
    const model = await loadBertForMaskedLM(SMALL, { seed: 1 });
    await expect(evaluateMaskedLM({} as never, tokenizer, texts)).rejects.toThrow(/a BertForMaskedLM/);
    await expect(evaluateMaskedLM(model, tokenizer, [])).rejects.toThrow(/a non-empty list of strings/);
    await expect(evaluateMaskedLM(model, tokenizer, texts, { batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(evaluateMaskedLM(model, tokenizer, texts, { maskToken: '<mask>' })).rejects.toThrow(/maskToken/);
    await expect(evaluateMaskedLM(model, tokenizer, texts, { seeds: 1 } as never)).rejects.toThrow(/seeds/);
    for (const key of ['batchSize', 'seed', 'maxSeqLength', 'maskToken']) { // null is no value (it used to mean the default): leave the option out
      await expect(evaluateMaskedLM(model, tokenizer, texts, { [key]: null })).rejects.toThrow(new RegExp(`evaluateMaskedLM: '${key}' must be .*; received null`));
    }
    model.dispose();
  });
});
