import { memory, tensor2d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { parseBertConfig } from './bert-config.js';
import { BertModel } from './bert-model.js';
import { loadBert } from './load-bert.js';

let model: BertModel;
beforeAll(async () => {
  await useBackend('cpu');
  model = await loadBert(decodeURIComponent(new URL('../../../../tooling/reference/fixtures/bert-b/', import.meta.url).pathname)); // vocab 53, 12 positions, 3 types
});

describe('BertModel.forward', () => {
  it('returns named outputs with their shapes; hidden states and attentions only when asked', () => {
    const out = model.forward({ inputIds: [[2, 5, 7], [3, 4, 0]], attentionMask: [[1, 1, 1], [1, 1, 0]], outputAttentions: true, outputHiddenStates: true });
    expect([out.lastHiddenState.shape, out.poolerOutput.shape, out.hiddenStates?.length, out.attentions?.map((a) => a.shape)]).toEqual([[2, 3, 24], [2, 24], 4, [[2, 3, 3, 3], [2, 3, 3, 3], [2, 3, 3, 3]]]);
    [out.lastHiddenState, out.poolerOutput, ...(out.hiddenStates ?? []), ...(out.attentions ?? [])].forEach((t) => t.dispose());
    const plain = model.forward({ inputIds: [[2, 5]] });
    expect([plain.hiddenStates, plain.attentions]).toEqual([undefined, undefined]);
    [plain.lastHiddenState, plain.poolerOutput].forEach((t) => t.dispose());
  });

  it('accepts int32 tensors like arrays, with identical results', async () => {
    const ids = tensor2d([[2, 5, 7]], undefined, 'int32');
    const [a, b] = [model.forward({ inputIds: ids }), model.forward({ inputIds: [[2, 5, 7]] })];
    expect(Array.from(await a.lastHiddenState.data())).toEqual(Array.from(await b.lastHiddenState.data()));
    [ids, a.lastHiddenState, a.poolerOutput, b.lastHiddenState, b.poolerOutput].forEach((t) => t.dispose());
  });

  it('leaks nothing across 100 forward passes (with attentions and hidden states)', () => {
    const before = memory();
    for (let i = 0; i < 100; i++) {
      const out = model.forward({ inputIds: [[2, 5, 7, 9], [3, 4, 0, 0]], attentionMask: [[1, 1, 1, 1], [1, 1, 0, 0]], tokenTypeIds: [[0, 0, 1, 1], [0, 2, 0, 0]], outputAttentions: i % 2 === 0, outputHiddenStates: i % 3 === 0 });
      [out.lastHiddenState, out.poolerOutput, ...(out.hiddenStates ?? []), ...(out.attentions ?? [])].forEach((t) => t.dispose());
    }
    expect([memory().numTensors - before.numTensors, memory().numBytes - before.numBytes]).toEqual([0, 0]);
  });

  it.each<[string, Parameters<BertModel['forward']>[0], string]>([
    ['an id outside the vocabulary', { inputIds: [[2, 53]] }, "BertModel.forward: 'inputIds[0][1]' must be an id in [0, 53); received 53."],
    ['a negative id', { inputIds: [[-1]] }, "BertModel.forward: 'inputIds[0][0]' must be an id in [0, 53); received -1."],
    ['a sequence longer than max positions', { inputIds: [Array(13).fill(1)] }, "BertModel.forward: 'inputIds' must be at most max_position_embeddings = 12 tokens per sequence; received 13 tokens. Truncate when tokenizing (truncation: true, maxLength)."],
    ['a mask of another shape', { inputIds: [[2, 5]], attentionMask: [[1, 1, 1]] }, "BertModel.forward: 'attentionMask' must be the shape of inputIds [1, 2]; received [1, 3]."],
    ['a mask value of 2', { inputIds: [[2, 5]], attentionMask: [[1, 2]] }, "BertModel.forward: 'attentionMask[0][1]' must be an id in [0, 2); received 2."],
    ['a token type beyond type_vocab_size', { inputIds: [[2, 5]], tokenTypeIds: [[0, 3]] }, "BertModel.forward: 'tokenTypeIds[0][1]' must be an id in [0, 3); received 3."],
    ['ragged rows', { inputIds: [[2, 5], [3]] }, "BertModel.forward: 'inputIds[1]' must be a row of 2 ids like row 0; received array [3]."],
    ['an empty batch', { inputIds: [] }, "BertModel.forward: 'inputIds' must be a non-empty [B, T] batch (B ≥ 1, T ≥ 1); received [0, 0]."],
    ['a zero-length sequence', { inputIds: [[]] }, "BertModel.forward: 'inputIds' must be a non-empty [B, T] batch (B ≥ 1, T ≥ 1); received [1, 0]."],
    ['a fractional id', { inputIds: [[2.5]] }, "BertModel.forward: 'inputIds[0][0]' must be an integer; received number 2.5."],
  ])('rejects %s, leaking nothing', (_, inputs, message) => {
    const before = memory().numTensors;
    const error = thrown(() => model.forward(inputs));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    expect(memory().numTensors).toBe(before);
  });

  it('rejects float32 id tensors', () => {
    const ids = tensor2d([[2, 5]]);
    expect(thrown(() => model.forward({ inputIds: ids })).message).toBe("BertModel.forward: 'inputIds' must be an int32 tensor of rank 2 [B, T]; received float32 tensor of rank 2 [1, 2].");
    ids.dispose();
  });

  it('frees every variable on dispose; later use and double dispose throw UseAfterDisposeError', async () => {
    const before = memory().numTensors;
    const other = await loadBert(decodeURIComponent(new URL('../../../../tooling/reference/fixtures/bert-b/', import.meta.url).pathname));
    other.dispose();
    expect(memory().numTensors).toBe(before);
    expect(thrown(() => other.forward({ inputIds: [[1]] }))).toBeInstanceOf(UseAfterDisposeError);
    expect(thrown(() => other.dispose()).message).toBe('BertModel.dispose: called after dispose() freed its weights. Create a new instance instead.');
  });
});

describe('BertModel without a checkpoint', () => {
  const config = parseBertConfig({ vocab_size: 40, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 4, intermediate_size: 32, max_position_embeddings: 10, type_vocab_size: 2, pad_token_id: 1, initializer_range: 0.05 });

  it("is initialised as Hugging Face's _init_weights: N(0, initializer_range), zero biases, unit LayerNorms, a zero padding row; seeded", async () => {
    const before = memory().numTensors;
    const [a, b] = [new BertModel(config, undefined, { seed: 7 }), new BertModel(config, undefined, { seed: 7 })];
    const values = async (m: BertModel, key: string) => Array.from(await m.stateDict().get(key)!.data());
    const words = await values(a, 'embeddings.word_embeddings.weight');
    const rows = Array.from({ length: 40 }, (_, r) => words.slice(r * 16, (r + 1) * 16));
    expect(rows[1]!.every((v) => v === 0)).toBe(true); // padTokenId 1
    const std = Math.sqrt(rows.filter((_, r) => r !== 1).flat().reduce((s, v) => s + v * v, 0) / (39 * 16));
    expect(std).toBeGreaterThan(0.04);
    expect(std).toBeLessThan(0.06);
    expect((await values(a, 'encoder.layer.1.output.LayerNorm.weight')).every((v) => v === 1)).toBe(true);
    expect((await values(a, 'encoder.layer.0.attention.self.query.bias')).every((v) => v === 0)).toBe(true);
    expect(await values(b, 'pooler.dense.weight')).toEqual(await values(a, 'pooler.dense.weight'));
    expect(a.training).toBe(false);
    [a, b].forEach((m) => m.dispose());
    expect(memory().numTensors).toBe(before);
  });
});
