import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { availableBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadEncoder } from '@attnkit/models';
import { Int8Linear, Linear } from '@attnkit/nn';
import { readSafetensors } from '@attnkit/hub';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainSentenceEncoder } from '../trainer/train-sentence-encoder.js';
import { paraphrasePairs, SENTENCE_FIXTURES, TINY_BERT } from '../trainer/synthetic-pairs.test-helper.js';
import { CheckpointError } from './checkpoint-error.js';
import { saveInt8Folder } from './save-int8-folder.js';
import { int8FolderFiles } from './int8-folder-files.js';
import { readTrainingCheckpoint } from './training-checkpoint.js';
import { saveSentenceFolder } from './save-sentence-folder.js';
import { embed, files, REFERENCE } from './saved-folder.test-helper.js';

const BACKENDS = (await availableBackends()).filter((b) => b === 'cpu' || b === 'wasm');
const FAMILY_BERT = join(REFERENCE, 'families', 'bert');
const INT8 = join(REFERENCE, 'attnkit-int8');


/** Bytes of the Linear weights stored I8 in `folder`'s model.safetensors, and of the same tensors in `source`'s (F32). */
async function linearWeightBytes(source: string, folder: string): Promise<{ float: number; int8: number; scales: number }> {
  const int8 = readSafetensors(await readFile(join(folder, 'model.safetensors')), { keepInt8: true }).tensors;
  const float = readSafetensors(await readFile(join(source, 'model.safetensors'))).tensors;
  const names = [...int8].filter(([, t]) => t.dtype === 'I8').map(([name]) => name);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return { float: sum(names.map((n) => float.get(n)!.values.byteLength)), int8: sum(names.map((n) => int8.get(n)!.values.byteLength)), scales: sum(names.map((n) => int8.get(`${n}_scale`)!.values.byteLength)) };
}

let scratch: string;
let sentenceFolders: string[];
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'attnkit-int8-'));
  sentenceFolders = (await readdir(SENTENCE_FIXTURES)).sort();
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe.each(BACKENDS)('saveInt8Folder on %s', (backend) => {
  it("saves every sentence-transformers fixture as an int8 folder with the same files that loads to the embeddings of quantize: 'int8', bit for bit, leaking nothing", async () => {
    await useBackend(backend);
    for (const name of sentenceFolders) {
      const source = join(SENTENCE_FIXTURES, name);
      const folder = join(scratch, `${backend}-${name}`);
      await saveInt8Folder(source, folder);
      expect(await files(folder), name).toEqual(await files(source));
      for (const file of await files(source)) if (!/(^|\/)(config\.json|model\.safetensors)$/.test(file) || /_Dense\/|_Pooling\/|_Normalize\//.test(file)) expect(await readFile(join(folder, file)), `${name}/${file}`).toEqual(await readFile(join(source, file))); // copied as it is
      const before = memory().numTensors;
      const [quantized, loaded] = [await loadSentenceEncoder(source, { quantize: 'int8' }), await loadSentenceEncoder(folder)];
      try {
        expect(loaded.encoder.namedModules().some(([, m]) => m instanceof Linear), name).toBe(false);
        expect(loaded.dense.every((d) => d.linear instanceof Linear), name).toBe(true);
        expect(await embed(loaded), name).toEqual(await embed(quantized));
      } finally {
        quantized.dispose();
        loaded.dispose();
      }
      expect(memory().numTensors, name).toBe(before);
      const bytes = await linearWeightBytes(source, folder);
      expect(bytes.int8 * 4, name).toBe(bytes.float);
    }
  });
});

describe('saveInt8Folder', () => {
  beforeAll(async () => {
    await useBackend('cpu');
  });

  it('saves a Hugging Face folder (the embedded tiny BERT): config, int8 weights, tokenizer files copied; a quarter of the Linear weight bytes', async () => {
    const folder = join(scratch, 'tiny-int8');
    const notices: string[] = [];
    await saveInt8Folder(TINY_BERT, folder, { onNotice: (m) => notices.push(m) });
    expect(await files(folder)).toEqual(['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    expect(await readFile(join(folder, 'tokenizer.json'))).toEqual(await readFile(join(TINY_BERT, 'tokenizer.json')));
    const config = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
    const original = JSON.parse(await readFile(join(TINY_BERT, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toEqual({ ...original, quantization_config: expect.objectContaining({ quant_method: 'compressed-tensors', format: 'int-quantized' }) });
    const bytes = await linearWeightBytes(TINY_BERT, folder);
    expect(bytes).toEqual({ float: 4 * bytes.int8, int8: bytes.int8, scales: expect.any(Number) });
    expect(bytes.int8).toBe(2 * (4 * 64 * 64 + 2 * 64 * 256) + 64 * 64); // 2 layers × (q, k, v, o + two feed-forward) + pooler, one byte a weight
    const [quantized, loaded] = [await loadEncoder(TINY_BERT, { quantize: 'int8' }), await loadEncoder(folder)];
    const inputs = { inputIds: [[101, 7592, 2088, 102]] };
    const [a, b] = [quantized.forward(inputs), loaded.forward(inputs)];
    expect(await b.lastHiddenState.data()).toEqual(await a.lastHiddenState.data());
    [a, b].forEach((o) => { o.lastHiddenState.dispose(); o.poolerOutput?.dispose(); });
    quantized.dispose();
    loaded.dispose();
  });

  it('refuses an int8 model in the training and saving paths (int8 weights have no gradient and are no parameters)', async () => {
    const folder = join(scratch, 'train-int8');
    await saveInt8Folder(join(SENTENCE_FIXTURES, 'bert-cls'), folder);
    const model = await loadSentenceEncoder(folder);
    try {
      const training = await trainSentenceEncoder(model, paraphrasePairs(8), { loss: 'multiple-negatives-ranking', batchSize: 4, maxSteps: 1 }).then(() => undefined, (e: unknown) => e);
      expect(training).toBeInstanceOf(InvalidArgumentError);
      expect((training as Error).message).toMatch(/^trainSentenceEncoder: 'model' must be a float model \(Int8Linear layers are inference only: int8 weights have no gradient\); received an int8 model \(\d+ Int8Linear layers: /);
      const saving = await saveSentenceFolder(model, join(scratch, 'never'), { source: folder }).then(() => undefined, (e: unknown) => e);
      expect(saving).toBeInstanceOf(InvalidArgumentError);
      expect(model.encoder.namedModules().filter(([, m]) => m instanceof Int8Linear).length).toBeGreaterThan(0);
    } finally {
      model.dispose();
    }
  });

  it('refuses a non-empty target without overwrite, bad options, and a source that is already int8', async () => {
    const folder = join(scratch, 'twice');
    await saveInt8Folder(FAMILY_BERT, folder);
    await expect(saveInt8Folder(FAMILY_BERT, folder)).rejects.toThrow(CheckpointError);
    await saveInt8Folder(FAMILY_BERT, folder, { overwrite: true });
    await expect(saveInt8Folder(folder, join(scratch, 'thrice'))).rejects.toThrow(/^int8EncoderFiles: 'source' must be a float32 encoder folder; received .*, which is already quantized/);
    await expect(saveInt8Folder(FAMILY_BERT, '')).rejects.toThrow("saveInt8Folder: 'folder' must be a folder path (a non-empty string); received");
    await expect(saveInt8Folder(FAMILY_BERT, folder, { overwrite: 'yes' } as never)).rejects.toThrow(InvalidArgumentError);
    await expect(saveInt8Folder(FAMILY_BERT, folder, { force: true } as never)).rejects.toThrow(InvalidArgumentError);
  });
});

describe('int8 folders saved by attnkit, read by Python safetensors and run by transformers on the dequantized weights (tooling/reference/check_int8_folder.py)', async () => {
  const reference = (await readFile(join(REFERENCE, 'attnkit-int8.json'), 'utf8').then(JSON.parse, () => ({}))) as Record<string, { int8_tensors: Array<{ name: string; dtype: string; shape: number[]; scale_shape: number[] }>; max_rounding_error_in_scales: number; input_ids: number[][]; last_hidden_state: number[][][] }>;
  it.skipIf(process.env['ATTNKIT_WRITE_INT8_FIXTURES'] === '1')('has the reference of both saved folders', () => expect(Object.keys(reference).sort()).toEqual(['bert-dense', 'bert-plain']));
  it.each(Object.keys(reference))('%s: Python reads each Linear weight as torch.int8 [out, in] with a float32 [out, 1] scale, within half a step of the float weight; attnkit\'s int8 model stays within cosine 0.999 of transformers on the dequantized weights', async (name) => {
    await useBackend('cpu');
    const { int8_tensors: tensors, max_rounding_error_in_scales: rounding, input_ids: inputIds, last_hidden_state: want } = reference[name]!;
    const stored = readSafetensors(await readFile(join(INT8, name, 'model.safetensors')), { keepInt8: true }).tensors;
    expect(tensors.map((t) => [t.name, t.dtype, t.shape, t.scale_shape])).toEqual([...stored].filter(([, t]) => t.dtype === 'I8').map(([n, t]) => [n, 'torch.int8', t.shape, [t.shape[0], 1]]).sort());
    expect(rounding).toBeLessThanOrEqual(0.5 + 1e-6); // |w - q·s| ≤ s/2: round to nearest
    const model = await loadEncoder(join(INT8, name));
    const { lastHiddenState } = model.forward({ inputIds });
    const got = (await lastHiddenState.array()) as number[][][];
    lastHiddenState.dispose();
    model.dispose();
    const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0) / Math.sqrt(a.reduce((s, v) => s + v * v, 0) * b.reduce((s, v) => s + v * v, 0));
    for (const [b, row] of want.entries()) for (const [t, token] of row.entries()) expect(cosine(got[b]![t]!, token), `${name} [${b}, ${t}]`).toBeGreaterThanOrEqual(0.999);
  });
});

/** Regenerates tooling/reference/fixtures/attnkit-int8/ (then run the Python check): ATTNKIT_WRITE_INT8_FIXTURES=1. */
it.runIf(process.env['ATTNKIT_WRITE_INT8_FIXTURES'] === '1')('writes the attnkit-int8 fixtures: a sentence-transformers folder and a plain BERT folder, saved int8', async () => {
  await useBackend('cpu');
  for (const [name, source] of [['bert-dense', join(SENTENCE_FIXTURES, 'bert-dense')], ['bert-plain', FAMILY_BERT]] as const) await saveInt8Folder(source, join(INT8, name), { overwrite: true });
});

describe('int8FolderFiles and readTrainingCheckpoint arguments', () => {
  it('refuses int8FolderFiles options that are not an options object, an unknown key and an onNotice that is not a function', async () => {
    await expect(int8FolderFiles(FAMILY_BERT, null as never)).rejects.toThrow(/^saveInt8Folder: 'options' must be an options object/);
    await expect(int8FolderFiles(FAMILY_BERT, { notice: () => {} } as never)).rejects.toThrow(/notice/);
    await expect(int8FolderFiles(FAMILY_BERT, { onNotice: 'x' } as never)).rejects.toThrow("saveInt8Folder: 'onNotice' must be a function (message) => void; received string 'x'.");
  });

  it('reads no checkpoint from a folder that is not a path string', async () => {
    await expect(readTrainingCheckpoint(null as never)).rejects.toThrow("trainSentenceEncoder: 'folder' must be a checkpoint folder path (a non-empty string); received null.");
    await expect(readTrainingCheckpoint('/tmp', 1 as never)).rejects.toThrow(/^readTrainingCheckpoint: 'caller' must be/);
  });
});
