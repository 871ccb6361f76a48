import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadCausalLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { trainCausalLanguageModel } from './train-causal-language-model.js';

const DECODERS = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/decoders/', import.meta.url).pathname);
const texts = ['the cat sat on the mat', 'the dog sat on the mat', 'a cat and a dog', 'the mat is red', 'the cat is black', 'a dog on a mat'];

describe('trainCausalLanguageModel', () => {
  it.each(['gpt2'])('lowers the loss of a tiny %s (its head tied to wte), keeps one embedding for both, and leaves no tensor behind', async (name) => {
    await useBackend('cpu');
    const folder = join(DECODERS, name);
    const model = await loadCausalLM(folder);
    const tokenizer = await loadTokenizer(folder);
    const keys = model.namedParameters().map(([key]) => key);
    const before = memory().numTensors;
    const history = await trainCausalLanguageModel(model, tokenizer, texts, { batchSize: 3, epochs: 4, learningRate: 3e-3, seed: 1 });
    expect(history.steps).toBe(8);
    const [first, last] = [history.losses.slice(0, 2), history.losses.slice(-2)].map((l) => (l[0]! + l[1]!) / 2);
    expect(last!).toBeLessThan(first! * 0.8);
    expect(model.training).toBe(false);
    expect(model.namedParameters().map(([key]) => key)).toEqual(keys); // tied: no lm_head appears
    expect(memory().numTensors).toBe(before);
    model.dispose();
  }, 60_000);

  it.each<[string, (m: Awaited<ReturnType<typeof loadCausalLM>>, t: Awaited<ReturnType<typeof loadTokenizer>>) => Promise<unknown>, string]>([
    ['a model that is not a causal LM', (_, t) => trainCausalLanguageModel({} as never, t, texts), "trainCausalLanguageModel: 'model' must be a causal language model (loadCausalLM); received Object."],
    ['no texts', (m, t) => trainCausalLanguageModel(m, t, []), "trainCausalLanguageModel: 'texts' must be a non-empty list of strings; received array []."],
    ['a blank text', (m, t) => trainCausalLanguageModel(m, t, ['a b', ' ']), "trainCausalLanguageModel: 'texts[1]' must be a non-empty string; received string ' '."],
    ['a checkpoint option', (m, t) => trainCausalLanguageModel(m, t, texts, { checkpoint: { folder: '/tmp/x', source: '/tmp/y' } } as never), "trainCausalLanguageModel: 'checkpoint' must be absent: checkpoints of causal language models are not written yet; received Object."],
    ['a batch size of 0', (m, t) => trainCausalLanguageModel(m, t, texts, { batchSize: 0 }), "trainCausalLanguageModel: 'batchSize' must be"],
  ])('refuses %s with an InvalidArgumentError', async (_, call, message) => {
    await useBackend('cpu');
    const folder = join(DECODERS, 'qwen3');
    const [model, tokenizer] = [await loadCausalLM(folder), await loadTokenizer(folder)];
    const error = await call(model, tokenizer).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message.startsWith(message), (error as Error).message).toBe(true);
    model.dispose();
  });
});
