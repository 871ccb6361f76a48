import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { memory } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { Int8Linear, Linear } from '@attnkit/nn';
import { ModelLoadError, readSafetensors, writeSafetensors } from '@attnkit/hub';
import { leaksOf } from '@attnkit/test-utils';
import { loadSequenceClassifier } from './load-sequence-classifier.js';
import { BertForSequenceClassification } from '../bert/bert-for-sequence-classification.js';
import { RobertaForSequenceClassification } from '../roberta/roberta-for-sequence-classification.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../../tooling/reference/fixtures/${name}/`, import.meta.url));
const ROBERTA = fixture('rerank/classifiers/roberta');
const BERT = fixture('rerank/classifiers/bert');
const INPUTS = { inputIds: [[0, 10, 11, 2], [0, 12, 2, 1]], attentionMask: [[1, 1, 1, 1], [1, 1, 1, 0]] };

/** A fixture folder's files with its tensors changed by `edit` (name → { shape, values }) and its config by `config`. */
function edited(folder: string, edit: (tensors: Record<string, { shape: number[]; values: Float32Array }>) => void, config: (json: Record<string, unknown>) => void = () => {}): { files: Record<string, Uint8Array | string> } {
  const file = readSafetensors(new Uint8Array(readFileSync(`${folder}model.safetensors`)));
  const tensors = Object.fromEntries([...file.tensors].map(([k, v]) => [k, { shape: [...v.shape], values: Float32Array.from(v.values) }]));
  edit(tensors);
  const json = JSON.parse(readFileSync(`${folder}config.json`, 'utf8')) as Record<string, unknown>;
  config(json);
  return { files: { 'config.json': JSON.stringify(json), 'model.safetensors': writeSafetensors(tensors) } };
}

beforeAll(() => useBackend('cpu'));

describe('loadSequenceClassifier', () => {
  it('refuses a folder without a head, naming the keys and the way out, and leaves no tensor', async () => {
    const before = memory().numTensors;
    await expect(loadSequenceClassifier(fixture('families/roberta'))).rejects.toThrow(ModelLoadError);
    await expect(loadSequenceClassifier(fixture('families/roberta'))).rejects.toThrow(/^loadSequenceClassifier: model\.safetensors in .*families\/roberta\/? has no classification head \(classifier\.dense\.weight, classifier\.dense\.bias, classifier\.out_proj\.weight, classifier\.out_proj\.bias\): a base model or a sentence-embedding folder, not a RobertaForSequenceClassification\. Load it with loadEncoder, or pass newHead: true for a new head of 2 labels/);
    expect(memory().numTensors).toBe(before);
  });

  it('gives a base folder a new head with newHead: true (seeded, as transformers initialises it), skipping the pooler it does not read', async () => {
    const notices: string[] = [];
    const model = await loadSequenceClassifier(fixture('families/roberta'), { newHead: true, seed: 5, onNotice: (m) => notices.push(m) });
    expect(model).toBeInstanceOf(RobertaForSequenceClassification);
    expect(model.initialisedKeys).toEqual(['classifier.dense.weight', 'classifier.dense.bias', 'classifier.out_proj.weight', 'classifier.out_proj.bias']);
    expect(notices.join('\n')).toMatch(/skipped 2 tensors the RobertaForSequenceClassification does not use \(roberta\.pooler\.dense\.bias, roberta\.pooler\.dense\.weight\)/);
    expect(notices.join('\n')).toMatch(/a new head \(classifier\.dense\.weight, .*\) is initialised, as transformers does: its logits mean nothing until trained/);
    const { logits } = model.forward(INPUTS);
    expect(logits.shape).toEqual([2, 2]); // config.json names no labels: transformers' default of 2
    logits.dispose();
    const again = await loadSequenceClassifier(fixture('families/roberta'), { newHead: true, seed: 5 });
    expect(Array.from(await again.namedParameters().find(([k]) => k === 'classifier.out_proj.weight')![1].data())).toEqual(Array.from(await model.namedParameters().find(([k]) => k === 'classifier.out_proj.weight')![1].data()));
    model.dispose();
    again.dispose();
  });

  it("refuses a BERT folder without the pooler its head reads, unless newHead initialises both", async () => {
    const noPooler = edited(BERT, (t) => { delete t['bert.pooler.dense.weight']; delete t['bert.pooler.dense.bias']; });
    await expect(loadSequenceClassifier(noPooler)).rejects.toThrow(/has no pooler \(bert\.pooler\.dense\.\*\), which BertForSequenceClassification's head reads; pass newHead: true/);
    const model = await loadSequenceClassifier(noPooler, { newHead: true });
    expect(model).toBeInstanceOf(BertForSequenceClassification);
    expect(model.initialisedKeys).toEqual(['bert.pooler.dense.weight', 'bert.pooler.dense.bias']); // the head came from the folder
    model.dispose();
  });

  it('refuses part of a head, and a head of another width than config.json says, leaving no tensor', async () => {
    const before = memory().numTensors;
    const partial = edited(ROBERTA, (t) => delete t['classifier.out_proj.bias']);
    await expect(loadSequenceClassifier(partial, { newHead: true })).rejects.toThrow(/has part of a classification head: classifier\.out_proj\.bias missing/);
    const wider = edited(ROBERTA, () => {}, (json) => { json['id2label'] = { 0: 'a', 1: 'b', 2: 'c' }; });
    await expect(loadSequenceClassifier(wider)).rejects.toThrow(/classifier\.out_proj\.weight \(expected \[3, 16\] float32, received \[1, 16\] float32\)/);
    expect(memory().numTensors).toBe(before);
  });

  it('skips the heads of other tasks with a notice', async () => {
    const notices: string[] = [];
    const withMlm = edited(ROBERTA, (t) => (t['lm_head.bias'] = { shape: [3], values: new Float32Array(3) }));
    const model = await loadSequenceClassifier(withMlm, { onNotice: (m) => notices.push(m) });
    expect(notices).toEqual(['loadSequenceClassifier: skipped 1 tensors the RobertaForSequenceClassification does not use (lm_head.bias), as transformers does.']);
    model.dispose();
  });

  it("quantize: 'int8' makes the encoder's Linear layers int8 and keeps the head float32", async () => {
    const float = await loadSequenceClassifier(ROBERTA);
    const int8 = await loadSequenceClassifier(ROBERTA, { quantize: 'int8' });
    const modules = new Map(int8.namedModules());
    expect(modules.get('roberta.encoder.layer.0.attention.self.query')).toBeInstanceOf(Int8Linear);
    expect(modules.get('classifier.out_proj')).toBeInstanceOf(Linear);
    expect(modules.get('classifier.out_proj')).not.toBeInstanceOf(Int8Linear);
    const [a, b] = [float.forward(INPUTS).logits, int8.forward(INPUTS).logits];
    const [x, y] = [await a.data(), await b.data()];
    expect(Math.max(...Array.from(x, (v, i) => Math.abs(v - y[i]!)))).toBeLessThan(0.02);
    a.dispose();
    b.dispose();
    float.dispose();
    int8.dispose();
  });

  it('passes hidden states and attentions on when asked for, and leaks nothing', async () => {
    const model = await loadSequenceClassifier(BERT);
    const out = model.forward({ ...INPUTS, inputIds: [[2, 10, 11, 3], [2, 12, 3, 0]], outputHiddenStates: true, outputAttentions: true });
    expect([out.logits.shape, out.hiddenStates?.length, out.attentions?.map((a) => a.shape)]).toEqual([[2, 1], 3, [[2, 2, 4, 4], [2, 2, 4, 4]]]);
    [out.logits, ...out.hiddenStates!, ...out.attentions!].forEach((t) => t.dispose());
    expect(await leaksOf(() => model.forward({ inputIds: [[2, 10, 3]] }).logits.dispose())).toEqual({ tensors: 0, bytes: 0 });
    model.dispose();
  });

  it('names misspelled and mistyped options', async () => {
    await expect(loadSequenceClassifier(ROBERTA, { newhead: true } as never)).rejects.toThrow(/newhead/);
    await expect(loadSequenceClassifier(ROBERTA, { newHead: 'yes' } as never)).rejects.toThrow("loadSequenceClassifier: 'newHead' must be true or false; received string 'yes'.");
    await expect(loadSequenceClassifier(ROBERTA, null as never)).rejects.toThrow("loadSequenceClassifier: 'options' must be an object of load options; received null.");
  });
});
