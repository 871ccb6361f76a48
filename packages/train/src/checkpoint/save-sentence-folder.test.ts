import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memory, type Tensor2D } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { readSafetensors } from '@attnkit/hub';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainSentenceEncoder } from '../trainer/train-sentence-encoder.js';
import { paraphrasePairs, SENTENCE_FIXTURES, TINY_BERT } from '../trainer/synthetic-pairs.test-helper.js';
import { CheckpointError } from './checkpoint-error.js';
import { saveSentenceFolder } from './save-sentence-folder.js';
import { embed, files, REFERENCE } from './saved-folder.test-helper.js';

const SAVED = join(REFERENCE, 'attnkit-saved');


const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => Array.from(a).reduce((m, v, i) => Math.max(m, Math.abs(v - (b[i] as number))), 0);

let scratch: string;
beforeAll(async () => {
  await useBackend('cpu');
  scratch = await mkdtemp(join(tmpdir(), 'attnkit-save-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('saveSentenceFolder', () => {
  it('saves the embedded plain BERT folder as a sentence-transformers folder (mean pooling) that loads back to identical embeddings', async () => {
    const model = await loadSentenceEncoder(TINY_BERT);
    const folder = join(scratch, 'tiny');
    await saveSentenceFolder(model, folder, { source: TINY_BERT });
    expect(await files(folder)).toEqual(['1_Pooling/config.json', 'README.md', 'config.json', 'config_sentence_transformers.json', 'model.safetensors', 'modules.json', 'sentence_bert_config.json', 'tokenizer.json', 'tokenizer_config.json']);
    const json = async (name: string) => JSON.parse(await readFile(join(folder, name), 'utf8'));
    expect((await json('modules.json')).map((m: { path: string; type: string }) => [m.path, m.type.split('.').at(-1)])).toEqual([['', 'Transformer'], ['1_Pooling', 'Pooling']]);
    expect(await json('1_Pooling/config.json')).toEqual({ embedding_dimension: 64, pooling_mode: 'mean', include_prompt: true });
    expect(await json('sentence_bert_config.json')).toMatchObject({ max_seq_length: 128, do_lower_case: false });
    expect(await json('config.json')).toMatchObject({ model_type: 'bert', hidden_size: 64, num_hidden_layers: 2, vocab_size: 30522, dtype: 'float32' });
    expect(await json('config.json')).not.toHaveProperty('torch_dtype');
    expect(await readFile(join(folder, 'tokenizer.json'))).toEqual(await readFile(join(TINY_BERT, 'tokenizer.json'))); // copied as is
    const { tensors } = readSafetensors(await readFile(join(folder, 'model.safetensors')));
    expect([...tensors.keys()]).toEqual(expect.arrayContaining(['embeddings.word_embeddings.weight', 'encoder.layer.0.attention.self.query.weight', 'encoder.layer.1.output.LayerNorm.bias', 'pooler.dense.weight']));
    expect(new Set([...tensors.values()].map((t) => t.dtype))).toEqual(new Set(['F32']));
    expect([...tensors.keys()].sort()).toEqual(model.encoder.namedParameters().map(([name]) => name).sort());

    const back = await loadSentenceEncoder(folder);
    expect(back.folder.plain).toBe(false);
    expect(maxAbsDiff(await embed(back), await embed(model))).toBeLessThanOrEqual(1e-6);
    back.dispose();
    model.dispose();
  });

  it("writes the files SentenceTransformer.save wrote for a folder with Dense and Normalize modules, and loads back to identical embeddings", async () => {
    const source = join(SENTENCE_FIXTURES, 'bert-dense');
    const reference = JSON.parse(await readFile(join(REFERENCE, 'sentence.json'), 'utf8'))['bert-dense'] as { files: string[] };
    const model = await loadSentenceEncoder(source);
    const folder = join(scratch, 'dense');
    const before = memory().numTensors;
    await saveSentenceFolder(model, folder, { source });
    expect(memory().numTensors).toBe(before);
    expect(await files(folder)).toEqual([...reference.files].sort()); // the fixture's list, written by sentence-transformers 6.0.1
    for (const module of ['2_Dense', '3_Dense']) expect(JSON.parse(await readFile(join(folder, module, 'config.json'), 'utf8'))).toEqual(JSON.parse(await readFile(join(source, module, 'config.json'), 'utf8')));
    expect(JSON.parse(await readFile(join(folder, '1_Pooling/config.json'), 'utf8'))).toEqual(JSON.parse(await readFile(join(source, '1_Pooling/config.json'), 'utf8')));
    const back = await loadSentenceEncoder(folder);
    expect(back.maxSeqLength).toBe(model.maxSeqLength);
    expect(maxAbsDiff(await embed(back), await embed(model))).toBeLessThanOrEqual(1e-6);
    back.dispose();
    model.dispose();
  });

  it('refuses a non-empty folder unless overwrite is set, a path that is a file, and bad arguments; a refused save leaves the folder as it was', async () => {
    const source = join(SENTENCE_FIXTURES, 'bert-dense');
    const model = await loadSentenceEncoder(source);
    const folder = join(scratch, 'twice');
    await saveSentenceFolder(model, folder, { source });
    await writeFile(join(folder, 'mine.txt'), 'kept');
    await expect(saveSentenceFolder(model, folder, { source })).rejects.toThrow(CheckpointError);
    await expect(saveSentenceFolder(model, folder, { source })).rejects.toThrow(/already exists and is not empty; pass overwrite: true/);
    expect(await readFile(join(folder, 'mine.txt'), 'utf8')).toBe('kept');
    await saveSentenceFolder(model, folder, { source, overwrite: true });
    await expect(stat(join(folder, 'mine.txt'))).rejects.toThrow(); // replaced as a whole
    expect((await readdir(scratch)).filter((name) => name.startsWith('.'))).toEqual([]); // no temporary or set-aside folder left
    const file = join(scratch, 'file');
    await writeFile(file, 'x');
    await expect(saveSentenceFolder(model, file, { source, overwrite: true })).rejects.toThrow(/is a file, not a folder/);
    await expect(saveSentenceFolder(model, join(scratch, 'x'), { source: join(scratch, 'no-such-source') })).rejects.toThrow(/neither tokenizer.json nor vocab.txt/);
    await expect(saveSentenceFolder({} as never, folder, { source })).rejects.toThrow(InvalidArgumentError);
    await expect(saveSentenceFolder(model, '', { source })).rejects.toThrow(/'folder' must be a folder path/);
    await expect(saveSentenceFolder(model, folder, { source, overwrites: true } as never)).rejects.toThrow(/overwrites.*overwrite/);
    model.dispose();
  });
});

describe('folders saved by attnkit, loaded by sentence-transformers 6.0.1 (tooling/reference/check_saved_sentence_folder.py)', async () => {
  const reference = (await readFile(join(REFERENCE, 'attnkit-saved.json'), 'utf8').then(JSON.parse, () => ({}))) as Record<string, { texts: string[]; embeddings: number[][]; attnkit_files: string[]; sentence_transformers_save_files: string[] }>;
  it.skipIf(process.env['ATTNKIT_WRITE_SAVED_FIXTURES'] === '1')('has the reference of both saved folders', () => expect(Object.keys(reference).sort()).toEqual(['bert-dense-normalize', 'bert-plain']));
  it.each(Object.keys(reference))('%s: attnkit embeds it as SentenceTransformer(folder).encode does (≤ 1e-5), and its files are those SentenceTransformer.save writes', async (name) => {
    const { texts, embeddings, attnkit_files, sentence_transformers_save_files } = reference[name]!;
    const folder = join(SAVED, name);
    expect(await files(folder)).toEqual(attnkit_files);
    expect(attnkit_files).toEqual(sentence_transformers_save_files);
    const model = await loadSentenceEncoder(folder);
    const got = (await model.encode(texts)) as Tensor2D;
    expect(maxAbsDiff(await got.data(), embeddings.flat())).toBeLessThanOrEqual(1e-5);
    got.dispose();
    model.dispose();
  });
});

/** Regenerates tooling/reference/fixtures/attnkit-saved/ (then run the Python check): ATTNKIT_WRITE_SAVED_FIXTURES=1. */
it.runIf(process.env['ATTNKIT_WRITE_SAVED_FIXTURES'] === '1')('writes the attnkit-saved fixtures: two tiny folders trained a few steps, then saved', async () => {
  for (const [name, source] of [['bert-dense-normalize', join(SENTENCE_FIXTURES, 'bert-dense')], ['bert-plain', join(REFERENCE, 'families', 'bert')]] as const) {
    const model = await loadSentenceEncoder(source);
    await trainSentenceEncoder(model, paraphrasePairs(16), { loss: 'multiple-negatives-ranking', batchSize: 8, maxSteps: 4, learningRate: 1e-2, seed: 3 });
    await saveSentenceFolder(model, join(SAVED, name), { source, overwrite: true });
    model.dispose();
  }
}, 120_000);
