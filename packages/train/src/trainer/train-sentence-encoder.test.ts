import { memory } from '@tensorflow/tfjs-core';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder, type SentenceEncoder } from '@attnkit/sentence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import { trainSentenceEncoder } from './train-sentence-encoder.js';
import { paraphrasePairs, SENTENCE_FIXTURES, TINY_BERT } from './synthetic-pairs.test-helper.js';

/** The tiny sentence-transformers fixture (vocab 520, 32 wide, two Dense modules, Normalize): tfjs' cpu backend is fast enough for it. */
const BERT_DENSE = join(SENTENCE_FIXTURES, 'bert-dense');
/**
 * The embedded demo model trains with dropout off here: its untrained, sharp-attention weights with dropout 0.1 learn
 * slowly (MNRL 3.2 -> 1.4 in 60 steps at 3e-3, against 2.9 -> 0.03 in 40 steps without); dropout is checked below.
 * Its word-embedding gradient is an UnsortedSegmentSum over 30 522 rows, ~100 s a step on tfjs' cpu backend: it trains on wasm. */
const setups = [
  { backend: 'cpu', folder: BERT_DENSE, learningRate: 3e-3, steps: 20 },
  { backend: 'wasm', folder: TINY_BERT, learningRate: 1e-3, steps: 40 },
] as const;

async function parameters(model: SentenceEncoder): Promise<Float32Array[]> {
  return Promise.all([...model.encoder.namedParameters(), ...model.dense.flatMap((d) => d.namedParameters())].map(async ([, p]) => (await p.data()) as Float32Array));
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'attnkit-trainer-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('trainSentenceEncoder', () => {
  it.each(setups)('lowers the loss, keeps the tensor count flat from step to step and leaves no tensor behind ($backend)', async ({ backend, folder, learningRate, steps }) => {
    await useBackend(backend, backend === 'wasm' ? { numThreads: 1 } : {});
    const model = await loadSentenceEncoder(folder);
    const before = memory().numTensors;
    const counts: number[] = [];
    const seen: Array<{ step: number; training: boolean }> = [];
    const started = performance.now();
    const history = await trainSentenceEncoder(model, paraphrasePairs(96), {
      loss: 'multiple-negatives-ranking', batchSize: 16, maxSteps: steps, learningRate, seed: 1, dropout: false,
      onProgress: (p) => counts.push(memory().numTensors),
      evaluation: { every: 10, evaluate: (m) => (seen.push({ step: counts.length, training: m.encoder.training }), { calls: seen.length }) },
    });
    const seconds = (performance.now() - started) / 1000;
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b) / xs.length;
    const [first, last] = [mean(history.losses.slice(0, 5)), mean(history.losses.slice(-5))];
    console.log(`${backend} ${folder.split('/').filter(Boolean).at(-1)}: MNRL ${first.toFixed(3)} -> ${last.toFixed(3)} (mean of 5 steps) in ${steps} steps of 16 pairs, ${(steps / seconds).toFixed(2)} steps/s, ${counts[0]! - before} tensors held while training`);
    expect(history.steps).toBe(steps);
    expect(history.losses).toHaveLength(steps);
    expect(last).toBeLessThan(0.5 * first);
    expect(new Set(counts.slice(1)).size).toBe(1); // after the first step made the moments, nothing grows
    expect(memory().numTensors).toBe(before); // optimiser moments freed, nothing else left
    const evaluatedAt = Array.from({ length: steps / 10 }, (_, i) => 10 * (i + 1));
    expect(seen).toEqual(evaluatedAt.map((step) => ({ step, training: false }))); // every 10 steps, in eval mode
    expect(history.evaluations.map((e) => [e.step, e.metrics['calls']])).toEqual(evaluatedAt.map((step, i) => [step, i + 1]));
    expect(model.encoder.training).toBe(false);
    expect(history.learningRates[0]).toBe(0); // linear warm-up from 0 (warmupRatio 0.1)
    expect(Math.max(...history.learningRates)).toBeCloseTo(learningRate, 12);
    model.dispose();
  }, 120_000);

  it('is reproducible with dropout on: the same seed gives the same losses, another seed others (wasm, dropout 0.1)', async () => {
    await useBackend('wasm', { numThreads: 1 });
    const run = async (seed: number, dropout = true) => {
      const model = await loadSentenceEncoder(TINY_BERT);
      const { losses } = await trainSentenceEncoder(model, paraphrasePairs(48), { loss: 'multiple-negatives-ranking', batchSize: 16, maxSteps: 3, learningRate: 5e-4, seed, dropout });
      model.dispose();
      return losses;
    };
    const a = await run(3);
    expect(await run(3)).toEqual(a);
    expect(await run(4)).not.toEqual(a);
    expect(await run(3, false)).not.toEqual(a); // dropout really acts
  }, 120_000);

  it.each([
    { backend: 'cpu', folder: BERT_DENSE, loss: 'cosine-similarity' as const },
    { backend: 'wasm', folder: TINY_BERT, loss: 'multiple-negatives-ranking' as const },
  ])('stopped at a checkpoint and resumed from a fresh load, reaches the same parameters and losses exactly ($backend, $loss)', async ({ backend, folder, loss }) => {
    await useBackend(backend, backend === 'wasm' ? { numThreads: 1 } : {});
    const pairs = paraphrasePairs(backend === 'cpu' ? 24 : 40);
    const data = loss === 'cosine-similarity' ? pairs.flatMap((p, i) => [{ a: p.anchor, b: p.positive, label: 0.9 }, { a: p.anchor, b: pairs[(i + 7) % pairs.length]!.positive, label: 0.1 }]) : pairs.map((p, i) => ({ ...p, negative: pairs[(i + 3) % pairs.length]!.positive }));
    const options = { loss, batchSize: 8, epochs: 2, learningRate: 1e-3, seed: 5 } as const;
    const straight = await loadSentenceEncoder(folder);
    const full = await trainSentenceEncoder(straight, data as never, options);
    const expected = await parameters(straight);
    straight.dispose();

    const runFolder = join(scratch, `resume-${backend}`);
    const controller = new AbortController();
    const first = await loadSentenceEncoder(folder);
    const stopAt = Math.floor(full.totalSteps / 2) + 1; // mid-epoch
    const part = await trainSentenceEncoder(first, data as never, { ...options, checkpoint: { folder: runFolder, source: folder, every: 4 }, onProgress: (p) => p.step === stopAt && controller.abort(), signal: controller.signal });
    first.dispose();
    expect(part).toMatchObject({ aborted: true, steps: stopAt });
    expect(part.checkpoints.at(-1)).toBe(join(runFolder, `checkpoint-${stopAt}`));
    expect(await readdir(runFolder)).toEqual([`checkpoint-${stopAt}`]); // keep: 1, and no temporary folder left

    const fresh = await loadSentenceEncoder(join(runFolder, `checkpoint-${stopAt}`)); // the checkpoint is a model folder
    const resumed = await trainSentenceEncoder(fresh, data as never, { ...options, resume: runFolder });
    expect(resumed.steps).toBe(full.totalSteps);
    expect(resumed.losses).toEqual(full.losses);
    expect(resumed.learningRates).toEqual(full.learningRates);
    const got = await parameters(fresh);
    expect(got.map((values, i) => values.every((v, j) => v === expected[i]![j]))).not.toContain(false); // bit for bit
    fresh.dispose();
  }, 180_000);

  it('refuses to resume with other data or settings, from a folder without trainer_state.json, or into a checkpoint folder that is a file', async () => {
    await useBackend('cpu');
    const model = await loadSentenceEncoder(BERT_DENSE);
    const data = paraphrasePairs(8);
    const runFolder = join(scratch, 'refusals');
    await trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, maxSteps: 1, checkpoint: { folder: runFolder, source: BERT_DENSE } });
    await expect(trainSentenceEncoder(model, paraphrasePairs(9), { loss: 'multiple-negatives-ranking', batchSize: 4, maxSteps: 2, resume: runFolder })).rejects.toThrow(/was written with the number of examples = 8, this run has 9/);
    await expect(trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, maxSteps: 2, seed: 7, resume: runFolder })).rejects.toThrow(/seed = 42, this run has 7/);
    await expect(trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, resume: BERT_DENSE })).rejects.toThrow(CheckpointError);
    await expect(trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, resume: BERT_DENSE })).rejects.toThrow(/has no trainer_state.json and no checkpoint-<step>\/ folder/);
    await expect(trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, resume: join(scratch, 'missing') })).rejects.toThrow(/does not exist/);
    const file = join(scratch, 'a-file');
    await writeFile(file, 'x');
    await expect(trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, maxSteps: 1, checkpoint: { folder: file, source: BERT_DENSE } })).rejects.toThrow(/the checkpoint folder .*a-file is a file/);
    await expect(trainSentenceEncoder(model, data, { loss: 'multiple-negatives-ranking', batchSize: 4, resume: file })).rejects.toThrow(/is a file/);
    model.dispose();
  }, 60_000);

  it('checks its inputs: typed errors naming the argument, what was expected and what was received', async () => {
    await useBackend('cpu');
    const model = await loadSentenceEncoder(BERT_DENSE);
    const before = memory().numTensors;
    const mnrl = { loss: 'multiple-negatives-ranking' } as const;
    const cases: Array<[unknown, unknown, RegExp]> = [
      [[], mnrl, /'data' must be at least one training pair; received an empty list/],
      ['pairs', mnrl, /'data' must be a list of training pairs/],
      [[{ anchor: 'a', positive: 'b' }, { anchor: 'c' }], mnrl, /'data\[1\]\.positive' must be a string .*received undefined/],
      [[{ anchor: 'a', positive: 7 }], mnrl, /'data\[0\]\.positive' must be a string.*received number 7/],
      [[{ anchor: 'a', positive: 'b', negative: 'c' }, { anchor: 'd', positive: 'e' }], mnrl, /'data\[1\]\.negative' must be a string, as data\[0\] has a negative/],
      [[{ a: 'x', b: 'y', label: Number.NaN }], { loss: 'cosine-similarity' }, /'data\[0\]\.label' must be a finite number/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, batchSize: 1 }, /'batchSize' must be an integer ≥ 2; received number 1/],
      [[{ anchor: 'a', positive: 'b' }], { loss: 'triplet' }, /'loss' must be 'multiple-negatives-ranking' or 'cosine-similarity'; received .*triplet/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, learningRate: -1 }, /'learningRate' must be a finite number > 0/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, warmupRatio: 2 }, /'warmupRatio' must be a number from 0 to 1; received number 2/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, epochs: 0 }, /'epochs' must be an integer ≥ 1; received number 0/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, epochs: 1, maxSteps: 3 }, /'maxSteps' must be absent when epochs is given/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, maxSeqLength: 10_000 }, /'maxSeqLength' must be an integer from 2 to 16/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, learningrate: 1e-4 }, /learningrate.*learningRate/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, evaluation: { every: 0, evaluate: () => ({}) } }, /'evaluation.every' must be an integer ≥ 1; received number 0/],
      [[{ anchor: 'a', positive: 'b' }], { ...mnrl, checkpoint: { folder: '', source: BERT_DENSE } }, /'checkpoint.folder' must be a folder path/],
    ];
    for (const [data, options, message] of cases) {
      const call = trainSentenceEncoder(model, data as never, options as never);
      await expect(call).rejects.toThrow(InvalidArgumentError);
      await expect(call).rejects.toThrow(message);
    }
    await expect(trainSentenceEncoder({} as never, [], mnrl)).rejects.toThrow(/'model' must be a SentenceEncoder/);
    expect(memory().numTensors).toBe(before);
    model.dispose();
  });
});
