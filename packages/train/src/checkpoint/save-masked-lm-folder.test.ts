import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { loadBertForMaskedLM, loadEncoder } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { InvalidArgumentError } from '@attnkit/errors';
import { readSafetensors } from '@attnkit/hub';
import { trainMaskedLanguageModel } from '../masked-lm/train-masked-language-model.js';
import { paraphrasePairs, SENTENCE_FIXTURES } from '../trainer/synthetic-pairs.test-helper.js';
import { saveMaskedLMFolder } from './save-masked-lm-folder.js';

const REFERENCE = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/', import.meta.url).pathname);
const SAVED = join(REFERENCE, 'attnkit-saved-mlm');
const SOURCE = join(SENTENCE_FIXTURES, 'bert-dense');

let scratch: string;
beforeAll(async () => {
  await useBackend('cpu');
  scratch = await mkdtemp(join(tmpdir(), 'attnkit-save-mlm-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('saveMaskedLMFolder', () => {
  it('writes save_pretrained\'s files: bert.* without the pooler, cls.predictions.* without the tied decoder; attnkit loads it back exactly', async () => {
    const model = await loadBertForMaskedLM(SOURCE, { seed: 2 });
    const folder = join(scratch, 'saved');
    await saveMaskedLMFolder(model, folder, { source: SOURCE });
    expect((await readdir(folder)).sort()).toEqual(['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    const keys = [...readSafetensors(new Uint8Array(await readFile(join(folder, 'model.safetensors')))).tensors.keys()];
    expect(keys.filter((k) => !k.startsWith('bert.') && !k.startsWith('cls.predictions.')).concat(keys.filter((k) => k.includes('pooler') || k.includes('decoder')))).toEqual([]);
    expect(keys.length).toBe(model.maskedLMParameters().length);
    const back = await loadBertForMaskedLM(folder);
    const batch = (await loadTokenizer(SOURCE)).encode(['the cat eats an apple']);
    const [a, b] = [model.forward(batch).logits, back.forward(batch).logits];
    expect(Array.from(await b.data())).toEqual(Array.from(await a.data()));
    const encoder = await loadEncoder(folder); // the encoder alone, as every attnkit loader reads it
    expect(encoder.config.hiddenSize).toBe(32);
    [a, b].forEach((t) => t.dispose());
    [model, back, encoder].forEach((m) => m.dispose());
  });

  it('refuses bad arguments and an existing folder without overwrite', async () => {
    const model = await loadBertForMaskedLM(SOURCE, { seed: 2 });
    const folder = join(scratch, 'taken');
    await saveMaskedLMFolder(model, folder, { source: SOURCE });
    await writeFile(join(folder, 'mine.txt'), 'keep');
    await expect(saveMaskedLMFolder(model, folder, { source: SOURCE })).rejects.toThrow(/not empty|exists/);
    await expect(saveMaskedLMFolder({} as never, folder, { source: SOURCE })).rejects.toThrow(/a BertForMaskedLM/);
    await expect(saveMaskedLMFolder(model, '', { source: SOURCE })).rejects.toThrow(InvalidArgumentError);
    await expect(saveMaskedLMFolder(model, join(scratch, 'x'), { source: SOURCE, overwrites: true } as never)).rejects.toThrow(/overwrites/);
    await expect(saveMaskedLMFolder(model, join(scratch, 'y'), { source: join(scratch, 'no-such-source') })).rejects.toThrow(/neither tokenizer.json nor vocab.txt/);
    model.dispose();
  });
});

describe('a folder saved by attnkit, loaded by transformers 5.17 (tooling/reference/check_saved_masked_lm_folder.py)', async () => {
  const reference = (await readFile(join(REFERENCE, 'attnkit-saved-mlm.json'), 'utf8').then(JSON.parse, () => undefined)) as { texts: string[]; input_ids: number[][]; attention_mask: number[][]; logits: number[][][]; missing_keys: string[]; unexpected_keys: string[]; mismatched_keys: string[] } | undefined;
  it.skipIf(process.env['ATTNKIT_WRITE_SAVED_FIXTURES'] === '1')('BertForMaskedLM.from_pretrained loads every weight (nothing missing or unexpected) to the logits attnkit computes (≤ 1e-5)', async () => {
    expect(reference).toBeDefined();
    const { texts, input_ids, attention_mask, logits, missing_keys, unexpected_keys, mismatched_keys } = reference!;
    expect([missing_keys, unexpected_keys, mismatched_keys]).toEqual([[], [], []]);
    const tokenizer = await loadTokenizer(SAVED);
    const batch = tokenizer.encode(texts);
    expect([batch.inputIds, batch.attentionMask]).toEqual([input_ids, attention_mask]);
    const model = await loadBertForMaskedLM(SAVED);
    const got = model.forward(batch).logits;
    const values = await got.data();
    const want = logits.flat(2);
    const worst = want.reduce((m, v, i) => Math.max(m, Math.abs(v - values[i]!)), 0);
    expect(worst).toBeLessThanOrEqual(1e-5);
    got.dispose();
    model.dispose();
  });
});

/** Regenerates tooling/reference/fixtures/attnkit-saved-mlm/ (then run the Python check): ATTNKIT_WRITE_SAVED_FIXTURES=1. */
it.runIf(process.env['ATTNKIT_WRITE_SAVED_FIXTURES'] === '1')('writes the attnkit-saved-mlm fixture: a tiny BERT pre-trained a few steps, then saved', async () => {
  const model = await loadBertForMaskedLM(SOURCE, { seed: 4 });
  await trainMaskedLanguageModel(model, await loadTokenizer(SOURCE), paraphrasePairs(32).map((p) => p.anchor), { batchSize: 8, maxSteps: 4, learningRate: 1e-2, seed: 3 });
  await saveMaskedLMFolder(model, SAVED, { source: SOURCE, overwrite: true });
  model.dispose();
}, 120_000);
