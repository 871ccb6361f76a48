import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { memory } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { readSafetensors, writeSafetensors } from '@attnkit/hub';
import { loadBertForMaskedLM } from './load-bert-for-masked-lm.js';
import { ModelLoadError } from '@attnkit/hub';

const fixture = (name: string) => fileURLToPath(new URL(`../../../../tooling/reference/fixtures/${name}/`, import.meta.url));
const MLM = fixture('bert-mlm');

/** The bert-mlm folder's files with its tensors changed by `edit` (name → { shape, values }). */
function edited(edit: (tensors: Record<string, { shape: number[]; values: Float32Array }>) => void): { files: Record<string, Uint8Array | string> } {
  const file = readSafetensors(new Uint8Array(readFileSync(`${MLM}model.safetensors`)));
  const tensors = Object.fromEntries([...file.tensors].map(([k, v]) => [k, { shape: [...v.shape], values: Float32Array.from(v.values) }]));
  edit(tensors);
  return { files: { 'config.json': readFileSync(`${MLM}config.json`, 'utf8'), 'model.safetensors': writeSafetensors(tensors) } };
}

beforeAll(() => useBackend('cpu'));

describe('loadBertForMaskedLM', () => {
  it('loads a TensorFlow-era pre-training checkpoint (LayerNorm.gamma/beta, next-sentence head) with its head', async () => {
    const model = await loadBertForMaskedLM(fixture('bert-legacy'));
    expect(model.initialisedKeys).toEqual([]); // pooler and head both in the file
    const stored = readSafetensors(new Uint8Array(readFileSync(`${fixture('bert-legacy')}model.safetensors`))).tensors;
    const gamma = stored.get('cls.predictions.transform.LayerNorm.gamma')!.values;
    expect(Array.from(await model.cls.get('predictions').transform.get('LayerNorm').weight!.data())).toEqual(Array.from(gamma));
    model.dispose();
  });

  it('gives a folder without a head a new one, initialised as transformers does, and says so', async () => {
    const before = memory().numTensors;
    const notices: string[] = [];
    const headless = edited((t) => Object.keys(t).filter((k) => k.startsWith('cls.')).forEach((k) => delete t[k]));
    const model = await loadBertForMaskedLM(headless, { seed: 3, onNotice: (m) => notices.push(m) });
    expect(model.initialisedKeys).toContain('cls.predictions.transform.dense.weight');
    expect(notices.join('\n')).toMatch(/no masked-language-model head \(cls\.predictions\.\*\); a new one is initialised/);
    expect(Array.from(await model.cls.get('predictions').bias.data()).every((v) => v === 0)).toBe(true); // HF: biases 0
    expect(Array.from(await model.cls.get('predictions').transform.get('LayerNorm').weight!.data()).every((v) => v === 1)).toBe(true);
    const again = await loadBertForMaskedLM(headless, { seed: 3 });
    expect(Array.from(await again.cls.get('predictions').transform.get('dense').weight.data())).toEqual(Array.from(await model.cls.get('predictions').transform.get('dense').weight.data())); // seeded
    model.dispose();
    again.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('refuses a partial head, naming what is missing, and leaves no tensor', async () => {
    const before = memory().numTensors;
    const partial = edited((t) => delete t['cls.predictions.transform.dense.bias']);
    await expect(loadBertForMaskedLM(partial)).rejects.toThrow(ModelLoadError);
    await expect(loadBertForMaskedLM(partial)).rejects.toThrow(/loadBertForMaskedLM: model\.safetensors in the given files has part of a masked-language-model head: cls\.predictions\.transform\.dense\.bias missing/);
    expect(memory().numTensors).toBe(before);
  });

  it('accepts a stored decoder equal to the word embeddings and refuses an untied one', async () => {
    const tied = edited((t) => (t['cls.predictions.decoder.weight'] = { ...t['bert.embeddings.word_embeddings.weight']! }));
    (await loadBertForMaskedLM(tied)).dispose();
    const untied = edited((t) => {
      const words = t['bert.embeddings.word_embeddings.weight']!;
      t['cls.predictions.decoder.weight'] = { shape: words.shape, values: words.values.map((v) => v * 2) };
    });
    await expect(loadBertForMaskedLM(untied)).rejects.toThrow(/differs from the word embeddings \(an untied decoder\)/);
  });

  it('loads BERT only, and names a misspelled option', async () => {
    const config = JSON.parse(readFileSync(`${MLM}config.json`, 'utf8')) as Record<string, unknown>;
    const roberta = { files: { 'config.json': JSON.stringify({ ...config, model_type: 'roberta' }), 'model.safetensors': readFileSync(`${MLM}model.safetensors`) } };
    await expect(loadBertForMaskedLM(roberta)).rejects.toThrow(/has model_type "roberta"; loadBertForMaskedLM loads "bert"/);
    await expect(loadBertForMaskedLM(MLM, { sead: 1 } as never)).rejects.toThrow(/sead/);
  });

  it('refuses options that are not an options object and a seed that is not an integer, naming them', async () => {
    await expect(loadBertForMaskedLM(MLM, null as never)).rejects.toThrow("loadBertForMaskedLM: 'options' must be an options object");
    await expect(loadBertForMaskedLM(MLM, NaN as never)).rejects.toThrow("loadBertForMaskedLM: 'options' must be an options object");
    await expect(loadBertForMaskedLM(MLM, { seed: 'x' } as never)).rejects.toThrow(/^loadBertForMaskedLM: 'seed' must be/);
    await expect(loadBertForMaskedLM(MLM, { seed: null } as never)).rejects.toThrow(/^loadBertForMaskedLM: 'seed' must be/);
  });
});
