import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { loadBertForMaskedLM, type BertForMaskedLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import { paraphrasePairs, SENTENCE_FIXTURES, TINY_BERT } from '../trainer/synthetic-pairs.test-helper.js';
import { saveMaskedLMFolder } from '../checkpoint/save-masked-lm-folder.js';
import { trainMaskedLanguageModel } from './train-masked-language-model.js';

/** A tiny BERT (vocab 520, 32 wide) with a WordPiece tokenizer: tfjs' cpu backend is fast enough for it. */
const SMALL = join(SENTENCE_FIXTURES, 'bert-dense');
const texts = paraphrasePairs(96).flatMap((p) => [p.anchor, p.positive]);
const setups = [
  { backend: 'cpu', folder: SMALL, learningRate: 3e-3, steps: 30 },
  { backend: 'wasm', folder: TINY_BERT, learningRate: 1e-3, steps: 30 },
] as const;

async function values(model: BertForMaskedLM): Promise<Float32Array[]> {
  return Promise.all(model.maskedLMParameters().map(async ([, p]) => (await p.data()) as Float32Array));
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'attnkit-mlm-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('trainMaskedLanguageModel', () => {
  it.each(setups)('lowers the loss, keeps the tensor count flat and leaves no tensor behind ($backend)', async ({ backend, folder, learningRate, steps }) => {
    await useBackend(backend, backend === 'wasm' ? { numThreads: 1 } : {});
    const model = await loadBertForMaskedLM(folder, { seed: 1 });
    const tokenizer = await loadTokenizer(folder);
    const before = memory().numTensors;
    const counts: number[] = [];
    const started = performance.now();
    const history = await trainMaskedLanguageModel(model, tokenizer, texts, { batchSize: 32, maxSteps: steps, learningRate, seed: 3, dropout: false, onProgress: () => counts.push(memory().numTensors) });
    const seconds = (performance.now() - started) / 1000;
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b) / xs.length;
    const [first, last] = [mean(history.losses.slice(0, 5)), mean(history.losses.slice(-5))];
    console.log(`${backend} ${folder.split('/').filter(Boolean).at(-1)}: masked-LM loss ${first.toFixed(3)} -> ${last.toFixed(3)} (mean of 5 steps) in ${steps} steps of 32 texts, ${(steps / seconds).toFixed(2)} steps/s`);
    expect(history.steps).toBe(steps);
    expect(last).toBeLessThan(first - 1); // more than a nat: the right token's probability up e-fold, from the head's random start
    expect(new Set(counts.slice(1)).size).toBe(1);
    expect(memory().numTensors).toBe(before);
    expect(model.training).toBe(false); // left in eval mode
    model.dispose();
  }, 300_000);

  it('resumes from a mid-run checkpoint to exactly the uninterrupted run (dropout and masking seeded), and the checkpoint is a BertForMaskedLM folder', async () => {
    await useBackend('cpu');
    const tokenizer = await loadTokenizer(SMALL);
    const options = { batchSize: 16, maxSteps: 8, learningRate: 2e-3, seed: 5, warmupSteps: 2 } as const;
    const full = await loadBertForMaskedLM(SMALL, { seed: 1 });
    const run = join(scratch, 'run');
    const uninterrupted = await trainMaskedLanguageModel(full, tokenizer, texts, { ...options, checkpoint: { folder: run, source: SMALL, every: 4, keep: 3 } });
    expect(uninterrupted.checkpoints.map((c) => c.split('/').at(-1))).toEqual(['checkpoint-4', 'checkpoint-8']);
    const four = join(run, 'checkpoint-4');
    expect((await readdir(four)).sort()).toEqual(['config.json', 'model.safetensors', 'optimizer.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'trainer_state.json']);
    const config = JSON.parse(await readFile(join(four, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect([config['architectures'], config['tie_word_embeddings'], config['dtype']]).toEqual([['BertForMaskedLM'], true, 'float32']);

    const resumed = await loadBertForMaskedLM(SMALL, { seed: 99 }); // other head weights: the checkpoint's must replace them
    const history = await trainMaskedLanguageModel(resumed, tokenizer, texts, { ...options, resume: four });
    expect(history.losses).toEqual(uninterrupted.losses);
    const [a, b] = [await values(full), await values(resumed)];
    a.forEach((v, i) => expect(Array.from(b[i]!)).toEqual(Array.from(v)));

    // the last checkpoint loads back to the trained model, as a masked LM and as a sentence encoder
    const loaded = await loadBertForMaskedLM(join(run, 'checkpoint-8'));
    expect(loaded.initialisedKeys).toEqual(['bert.pooler.dense.weight', 'bert.pooler.dense.bias']); // the pooler is not saved, as transformers' BertForMaskedLM
    const batch = tokenizer.encode(['the cat eats an apple', 'a kid']);
    const [x, y] = [full.forward(batch).logits, loaded.forward(batch).logits];
    expect(Array.from(await y.data())).toEqual(Array.from(await x.data()));
    const encoder = await loadSentenceEncoder(join(run, 'checkpoint-8'));
    expect((await encoder.encode(['a kid'])).shape).toEqual([1, 32]);
    [x, y].forEach((t) => t.dispose());
    [full, resumed, loaded].forEach((m) => m.dispose());
    encoder.dispose();
  }, 120_000);

  it('stops on the signal after the current step, writing a checkpoint', async () => {
    await useBackend('cpu');
    const tokenizer = await loadTokenizer(SMALL);
    const model = await loadBertForMaskedLM(SMALL, { seed: 1 });
    const controller = new AbortController();
    const history = await trainMaskedLanguageModel(model, tokenizer, texts, { batchSize: 16, maxSteps: 50, signal: controller.signal, checkpoint: { folder: join(scratch, 'stopped'), source: SMALL }, onProgress: (p) => p.step === 3 && controller.abort() });
    expect([history.aborted, history.steps, history.checkpoints.map((c) => c.split('/').at(-1))]).toEqual([true, 3, ['checkpoint-3']]);
    model.dispose();
  });

  it('refuses bad arguments with typed errors, and a checkpoint of another run', async () => {
    await useBackend('cpu');
    const tokenizer = await loadTokenizer(SMALL);
    const model = await loadBertForMaskedLM(SMALL, { seed: 1 });
    await expect(trainMaskedLanguageModel({} as never, tokenizer, texts)).rejects.toThrow(/a BertForMaskedLM/);
    await expect(trainMaskedLanguageModel(model, {} as never, texts)).rejects.toThrow(/a Tokenizer/);
    await expect(trainMaskedLanguageModel(model, tokenizer, [])).rejects.toThrow(/a non-empty list of strings/);
    await expect(trainMaskedLanguageModel(model, tokenizer, ['ok', ' '])).rejects.toThrow(/texts\[1\].*a non-empty string/);
    await expect(trainMaskedLanguageModel(model, tokenizer, texts, { maskToken: '<mask>' })).rejects.toThrow(/maskToken.*"<mask>" \(not in the vocabulary\)/);
    await expect(trainMaskedLanguageModel(model, tokenizer, texts, { maskProbability: 0 })).rejects.toThrow(InvalidArgumentError);
    await expect(trainMaskedLanguageModel(model, tokenizer, texts, { batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(trainMaskedLanguageModel(model, tokenizer, texts, { maxSeqLength: 1000 })).rejects.toThrow(/maxSeqLength/);
    await expect(trainMaskedLanguageModel(model, tokenizer, texts, { evaluation: { every: 0, evaluate: () => ({}) } })).rejects.toThrow(/evaluation\.every/);
    await expect(trainMaskedLanguageModel(model, tokenizer, ['the cat', '☃'])).rejects.toThrow(/texts\[1\].*a text with at least one token to predict/);
    const int8 = await loadBertForMaskedLM(SMALL, { seed: 1, quantize: 'int8' });
    await expect(trainMaskedLanguageModel(int8, tokenizer, texts, { dropout: false })).rejects.toThrow(/Int8Linear layers are inference only: int8 weights have no gradient/);
    await expect(saveMaskedLMFolder(int8, join(scratch, 'int8'), { source: SMALL })).rejects.toThrow(/int8 weights are not saved as parameters/);
    int8.dispose();
    const run = join(scratch, 'other');
    await trainMaskedLanguageModel(model, tokenizer, texts.slice(0, 40), { batchSize: 8, maxSteps: 2, checkpoint: { folder: run, source: SMALL } });
    await expect(trainMaskedLanguageModel(model, tokenizer, texts, { batchSize: 8, maxSteps: 4, resume: run })).rejects.toThrow(CheckpointError);
    await expect(trainMaskedLanguageModel(model, tokenizer, texts, { batchSize: 8, maxSteps: 4, resume: run })).rejects.toThrow(/the number of examples/);
    const same = texts.slice(0, 40);
    await expect(trainMaskedLanguageModel(model, tokenizer, same, { batchSize: 8, maxSteps: 4, resume: run, maskProbability: 0.3 })).rejects.toThrow(/written with loss = "masked-language-model \(0\.15 of at most \d+ tokens, \[MASK\]\)", this run has "masked-language-model \(0\.3 of/);
    model.dispose();
  }, 60_000);
});
