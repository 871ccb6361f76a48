import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadCausalLM, type CausalLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import { saveCausalLMFolder } from '../checkpoint/save-causal-lm-folder.js';
import { trainCausalLanguageModel } from './train-causal-language-model.js';

const DECODERS = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/decoders/', import.meta.url).pathname);
const texts = ['the cat sat on the mat', 'the dog sat on the mat', 'a cat and a dog', 'the mat is red', 'the cat is black', 'a dog on a mat'];

async function values(model: CausalLM): Promise<Float32Array[]> {
  return Promise.all(model.namedParameters().map(async ([, p]) => (await p.data()) as Float32Array));
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'attnkit-clm-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

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
    ['an empty resume folder name', (m, t) => trainCausalLanguageModel(m, t, texts, { resume: '' }), "trainCausalLanguageModel: 'resume' must be a checkpoint folder path (a non-empty string); received string ''."],
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

  it.each(['gpt2', 'qwen3-untied'])('resumes a %s run from a mid-run checkpoint to exactly the uninterrupted run, and each checkpoint is a causal-LM folder that loads back', async (name) => {
    await useBackend('cpu');
    const folder = join(DECODERS, name);
    const tokenizer = await loadTokenizer(folder);
    const options = { batchSize: 2, maxSteps: 6, learningRate: 3e-3, seed: 5, warmupSteps: 2 } as const;
    const full = await loadCausalLM(folder);
    const run = join(scratch, `run-${name}`);
    const uninterrupted = await trainCausalLanguageModel(full, tokenizer, texts, { ...options, checkpoint: { folder: run, source: folder, every: 3, keep: 2 } });
    expect(uninterrupted.checkpoints.map((c) => c.split('/').at(-1))).toEqual(['checkpoint-3', 'checkpoint-6']);
    const three = join(run, 'checkpoint-3');
    expect((await readdir(three)).sort()).toEqual(['config.json', 'generation_config.json', 'model.safetensors', 'optimizer.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'trainer_state.json']);
    const config = JSON.parse(await readFile(join(three, 'config.json'), 'utf8')) as Record<string, unknown>;
    const source = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toEqual({ ...source, dtype: 'float32' });

    const resumed = await loadCausalLM(folder);
    const history = await trainCausalLanguageModel(resumed, tokenizer, texts, { ...options, resume: three });
    expect(history.losses).toEqual(uninterrupted.losses);
    const [a, b] = [await values(full), await values(resumed)];
    a.forEach((v, i) => expect(Array.from(b[i]!)).toEqual(Array.from(v)));

    // the last checkpoint and a saved folder load back to the trained model
    const saved = join(scratch, `saved-${name}`);
    await saveCausalLMFolder(full, saved, { source: folder });
    const inputIds = tokenizer.encode(['the cat is red']).inputIds;
    const expected = full.forward({ inputIds }).logits;
    for (const from of [join(run, 'checkpoint-6'), saved]) {
      const loaded = await loadCausalLM(from);
      const logits = loaded.forward({ inputIds }).logits;
      expect(Array.from(await logits.data())).toEqual(Array.from(await expected.data()));
      logits.dispose();
      loaded.dispose();
    }
    await expect(saveCausalLMFolder(full, saved, { source: folder })).rejects.toThrow(/exists/);
    expected.dispose();
    [full, resumed].forEach((m) => m.dispose());
  }, 60_000);

  it('refuses a checkpoint of another run, another family, and int8 models', async () => {
    await useBackend('cpu');
    const folder = join(DECODERS, 'gpt2');
    const tokenizer = await loadTokenizer(folder);
    const model = await loadCausalLM(folder);
    const run = join(scratch, 'other');
    await trainCausalLanguageModel(model, tokenizer, texts.slice(0, 4), { batchSize: 2, maxSteps: 2, checkpoint: { folder: run, source: folder } });
    await expect(trainCausalLanguageModel(model, tokenizer, texts, { checkpoint: { folder: run } } as never)).rejects.toThrow('trainCausalLanguageModel: the model source must be a folder path or URL');
    await expect(trainCausalLanguageModel(model, tokenizer, texts, { batchSize: 2, maxSteps: 4, resume: run })).rejects.toThrow(CheckpointError);
    await expect(trainCausalLanguageModel(model, tokenizer, texts, { batchSize: 2, maxSteps: 4, resume: run })).rejects.toThrow(/the number of examples/);
    const qwen = join(DECODERS, 'qwen3');
    const other = await loadCausalLM(qwen);
    await expect(trainCausalLanguageModel(other, await loadTokenizer(qwen), texts.slice(0, 4), { batchSize: 2, maxSteps: 2, resume: run })).rejects.toThrow(/is not this model's checkpoint: .* missing/);
    await expect(saveCausalLMFolder(other, join(scratch, 'wrong-source'), { source: folder })).rejects.toThrow(/config\.json in .* is for model_type "gpt2", the model is "qwen3"/);
    other.dispose();
    const int8 = await loadCausalLM(folder, { quantize: 'int8' });
    await expect(trainCausalLanguageModel(int8, tokenizer, texts)).rejects.toThrow(/Int8Linear layers are inference only: int8 weights have no gradient/);
    await expect(saveCausalLMFolder(int8, join(scratch, 'int8'), { source: folder })).rejects.toThrow(/int8 weights are not saved as parameters/);
    await expect(saveCausalLMFolder({} as never, join(scratch, 'x'), { source: folder })).rejects.toThrow(InvalidArgumentError);
    await expect(saveCausalLMFolder(model, '', { source: folder })).rejects.toThrow("saveCausalLMFolder: 'folder' must be a folder path (a non-empty string); received string ''.");
    int8.dispose();
    model.dispose();
  }, 60_000);
});
