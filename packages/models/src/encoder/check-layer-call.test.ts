import { ones, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { BertLayer, BertSelfAttention } from '../bert/bert-model.js';
import { TransformerBlock } from '../distilbert/distilbert-model.js';
import { ModernBertAttention } from '../modernbert/modernbert-model.js';
import { parseModernBertConfig } from '../modernbert/modernbert-config.js';
import { RoFormerLayer } from '../roformer/roformer-model.js';
import { parseEncoderConfig } from './parse-encoder-config.js';
import { checkLayerCall, checkRotaryTables } from './check-layer-call.js';

beforeAll(() => useBackend('cpu'));
const tiny = { vocab_size: 10, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 8, max_position_embeddings: 8, type_vocab_size: 2 };
const caller = 'BertLayer.forward';

describe('checkLayerCall', () => {
  it('takes float32 hidden [B, T, E], an absent or bool mask, an absent or float32 bias, { outputAttentions? }', () => {
    const [hidden, mask, bias] = [zeros([1, 3, 8]), ones([1, 1, 1, 3], 'bool'), zeros([1, 2, 3, 3])];
    expect(() => checkLayerCall(caller, hidden, mask, bias, { outputAttentions: true })).not.toThrow();
    expect(() => checkLayerCall(caller, hidden, undefined, undefined, {})).not.toThrow();
    [hidden, mask, bias].forEach((t) => t.dispose());
  });

  it.each<[string, () => unknown[], string]>([
    ['hidden null', () => [null, undefined, undefined, {}], "BertLayer.forward: 'hidden' must be a float32 tensor of rank 3 [B, T, E]; received null."],
    ['a null mask', () => [zeros([1, 3, 8]), null, undefined, {}], "BertLayer.forward: 'mask' must be a bool tensor broadcastable to [B, H, T, T] (true = may attend); received null."],
    ['a float mask', () => [zeros([1, 3, 8]), zeros([1, 1, 1, 3]), undefined, {}], "BertLayer.forward: 'mask' must be a bool tensor broadcastable to [B, H, T, T] (true = may attend); received float32 tensor of rank 4 [1, 1, 1, 3]."],
    ['an int32 bias', () => [zeros([1, 3, 8]), undefined, tensor([1], [1], 'int32'), {}], "BertLayer.forward: 'bias' must be a float32 tensor broadcastable to [B, H, T, T]; received int32 tensor of rank 1 [1]."],
    ['null options', () => [zeros([1, 3, 8]), undefined, undefined, null], "BertLayer.forward: 'options' must be an options object; received null."],
    ['outputAttentions "x"', () => [zeros([1, 3, 8]), undefined, undefined, { outputAttentions: 'x' }], "BertLayer.forward: 'outputAttentions' must be true or false; received string 'x'."],
  ])('refuses %s', (_, make, message) => {
    const args = make();
    const error = thrown(() => checkLayerCall(caller, args[0], args[1], args[2], args[3] as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    args.forEach((a) => (a as { dispose?: () => void } | null)?.dispose?.());
  });
});

describe('checkRotaryTables', () => {
  it('takes { cos, sin } float32 tensors and refuses anything else by name', () => {
    const [cos, sin] = [ones([1, 3, 4]), zeros([1, 3, 4])];
    expect(checkRotaryTables('RoFormerLayer.forward', 'rotary', { cos, sin })).toEqual({ cos, sin });
    expect(() => checkRotaryTables('RoFormerLayer.forward', 'rotary', undefined)).toThrow("RoFormerLayer.forward: 'rotary' must be rotary tables { cos, sin } (float32 tensors [B, T, D]); received undefined.");
    expect(() => checkRotaryTables('RoFormerLayer.forward', 'rotary', { cos })).toThrow("RoFormerLayer.forward: 'rotary.sin' must be a float32 tensor [B, T, D] (the rotary tables at the positions); received undefined.");
    [cos, sin].forEach((t) => t.dispose());
  });
});

describe('the encoder layers check their arguments before any work, and leak nothing', () => {
  it.each<[string, () => { forward: (...args: never[]) => unknown; dispose(): void }, () => unknown[], RegExp]>([
    ['BertSelfAttention', () => new BertSelfAttention(parseEncoderConfig({ ...tiny, model_type: 'bert' })), () => [zeros([1, 3, 8]), null], /^BertSelfAttention\.forward: 'mask' must be a bool tensor/],
    ['BertLayer', () => new BertLayer(parseEncoderConfig({ ...tiny, model_type: 'bert' })), () => [zeros([1, 3, 8]), undefined, undefined, NaN], /^BertLayer\.forward: 'options' must be an options object; received number NaN\.$/],
    ['TransformerBlock (its unused bias too)', () => new TransformerBlock(parseEncoderConfig({ model_type: 'distilbert', vocab_size: 10, dim: 8, n_layers: 1, n_heads: 2, hidden_dim: 8, max_position_embeddings: 8 })), () => [zeros([1, 3, 8]), undefined, 'x'], /^TransformerBlock\.forward: 'bias' must be a float32 tensor/],
    ['RoFormerLayer', () => new RoFormerLayer(parseEncoderConfig({ ...tiny, model_type: 'roformer' })), () => [zeros([1, 3, 8]), undefined, null], /^RoFormerLayer\.forward: 'rotary' must be rotary tables/],
    ['ModernBertAttention', () => new ModernBertAttention(parseModernBertConfig({ ...tiny, model_type: 'modernbert', pad_token_id: 0, layer_types: ['full_attention'] })), () => [zeros([1, 3, 8]), null], /^ModernBertAttention\.forward: 'inputs' must be rotary tables/],
  ])('%s', async (_, make, args, message) => {
    const layer = make();
    const given = args();
    expect(await leaksOf(() => { expect(() => layer.forward(...(given as never[]))).toThrow(message); })).toEqual({ tensors: 0, bytes: 0 });
    given.forEach((a) => (a as { dispose?: () => void } | null)?.dispose?.());
    layer.dispose();
  });
});
