import { beforeAll, describe, expect, it } from 'vitest';
import { memory, reshape, tensor1d } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { Linear } from '@attnkit/nn';
import { parseBertConfig } from './bert-config.js';
import { BertForMaskedLM, MASKED_LM_HEAD_KEYS } from './bert-for-masked-lm.js';
import { BertModel } from './bert-model.js';

const config = parseBertConfig({ vocab_size: 30, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 16, max_position_embeddings: 16 });
const inputs = { inputIds: [[2, 5, 9, 3], [2, 7, 3, 0]], attentionMask: [[1, 1, 1, 1], [1, 1, 1, 0]] };

beforeAll(() => useBackend('cpu'));

describe('BertForMaskedLM', () => {
  it('has transformers\' module tree: bert.*, cls.predictions.*, the decoder tied to the word embeddings', () => {
    const model = new BertForMaskedLM(config, undefined, { seed: 1 });
    const keys = model.namedParameters().map(([k]) => k);
    for (const key of MASKED_LM_HEAD_KEYS) expect(keys).toContain(key);
    expect(keys).toContain('bert.embeddings.word_embeddings.weight');
    expect(keys.filter((k) => k.includes('decoder'))).toEqual([]); // tied: no second matrix
    expect(model.maskedLMParameters().length).toBe(keys.length - 2); // all but the pooler
    model.dispose();
  });

  it('is seeded: the same seed builds the same model, another seed another', async () => {
    const [a, b, c] = [1, 1, 2].map((seed) => new BertForMaskedLM(config, undefined, { seed }));
    const values = (m: BertForMaskedLM) => m.cls.get('predictions').transform.get('dense').weight.dataSync().join();
    expect(values(a!)).toBe(values(b!));
    expect(values(a!)).not.toBe(values(c!));
    [a, b, c].forEach((m) => m!.dispose());
  });

  it('gives [B, T, V] logits, or [N, V] at positions, leaving no tensor', () => {
    const model = new BertForMaskedLM(new BertModel(config, undefined, { seed: 4 }), undefined, { seed: 4 });
    const before = memory().numTensors;
    const all = model.forward(inputs).logits;
    expect(all.shape).toEqual([2, 4, 30]);
    const some = model.forward(inputs, { positions: tensor1d([1, 6], 'int32') }).logits;
    expect(some.shape).toEqual([2, 30]);
    const flat = reshape(all, [8, 30]);
    const rows = flat.arraySync() as number[][];
    flat.dispose();
    const picked = some.arraySync() as number[][];
    expect(picked[0]!.map((v, i) => Math.abs(v - rows[1]![i]!)).every((d) => d < 1e-5)).toBe(true);
    expect(picked[1]!.map((v, i) => Math.abs(v - rows[6]![i]!)).every((d) => d < 1e-5)).toBe(true);
    all.dispose();
    some.dispose();
    expect(memory().numTensors).toBe(before + 1); // the int32 positions tensor made above, the caller's
    model.dispose();
  });

  it('refuses bad positions and bad constructor arguments with typed errors', () => {
    const model = new BertForMaskedLM(config, undefined, { seed: 1 });
    expect(() => model.forward(inputs, { positions: [0, 8] })).toThrow(/positions\[1\].*an integer in \[0, B·T\) = \[0, 8\)/);
    expect(() => model.forward(inputs, { positions: [1.5] })).toThrow(InvalidArgumentError);
    const floats = tensor1d([1]);
    expect(() => model.forward(inputs, { positions: floats })).toThrow(/an int32 tensor \[N\]/);
    floats.dispose();
    const far = tensor1d([99], 'int32');
    expect(() => model.forward(inputs, { positions: far })).toThrow(/positions\[0\]/);
    far.dispose();
    expect(() => model.forward(inputs, { position: [1] } as never)).toThrow(/position/);
    model.dispose();
    const before = memory().numTensors;
    const linear = new Linear(2, 2);
    expect(() => new BertForMaskedLM(linear as never)).toThrow(/a BertModel.*received a Linear/);
    linear.dispose();
    expect(() => new BertForMaskedLM(null as never)).toThrow(InvalidArgumentError);
    expect(() => new BertForMaskedLM(config, new Map([['cls.predictions.bias', { shape: [3], values: new Float32Array(3) }]]))).toThrow(/cls|predictions|bias|missing/);
    expect(memory().numTensors).toBe(before); // a failed construction leaks nothing
  });
});

describe('BertLMPredictionHead.forward refusals', () => {
  it('refuses hidden or a word-embedding table that is no float32 tensor, or a table of another width, by name', () => {
    const model = new BertForMaskedLM(config, undefined, { seed: 1 });
    const head = model.cls.get('predictions');
    const table = model.bert.embeddings.wordEmbeddings.weight; // [30, 8]
    const hidden = reshape(tensor1d(new Array(16).fill(0.5)), [2, 8]);
    expect(() => head.forward(null as never, table)).toThrow("BertLMPredictionHead.forward: 'hidden' must be a float32 tensor of rank 2 or 3 [N, E] or [B, T, E]; received null.");
    expect(() => head.forward(hidden, undefined as never)).toThrow("BertLMPredictionHead.forward: 'wordEmbeddings' must be a float32 tensor of rank 2 [V, E]; received undefined.");
    const narrow = reshape(tensor1d(new Array(12).fill(0)), [3, 4]);
    expect(() => head.forward(hidden, narrow)).toThrow(InvalidArgumentError);
    expect(() => head.forward(hidden, narrow)).toThrow("BertLMPredictionHead.forward: 'wordEmbeddings' must be [V, E] with E = 8 (the width of hidden); received [3, 4].");
    [hidden, narrow, model].forEach((t) => t.dispose());
  });
});
