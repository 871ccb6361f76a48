import { profile } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import type { BertModel } from '../bert/bert-model.js';
import { loadBert } from '../bert/load-bert.js';
import { MPNetModel } from '../mpnet/mpnet-model.js';
import { parseEncoderConfig } from './parse-encoder-config.js';

let model: BertModel;
beforeAll(async () => {
  await useBackend('wasm');
  model = await loadBert(decodeURIComponent(new URL('../../../../tooling/reference/fixtures/bert-b/', import.meta.url).pathname)); // vocab 53, 12 positions, 3 types
});
afterAll(() => useBackend('cpu'));

const inputs = { inputIds: [[2, 5, 7, 9], [3, 4, 6, 0]], attentionMask: [[1, 1, 1, 1], [1, 1, 1, 0]] };

describe('encoderForward on wasm', () => {
  it('runs the attention fused (no attention matMul or softmax) unless the weights are asked for; the same hidden states within 1e-5', async () => {
    const fusedProfile = await profile(() => { const out = model.forward(inputs); return [out.lastHiddenState, out.poolerOutput]; });
    expect(fusedProfile.kernelNames).not.toContain('AttnkitMaskedSoftmax');
    const weightsProfile = await profile(() => { const out = model.forward({ ...inputs, outputAttentions: true }); return [out.lastHiddenState, out.poolerOutput, ...out.attentions!]; });
    expect(weightsProfile.kernelNames).toContain('AttnkitMaskedSoftmax');
    const [fused, unfused] = [model.forward(inputs), model.forward({ ...inputs, outputAttentions: true })];
    const [a, b] = [await fused.lastHiddenState.data(), await unfused.lastHiddenState.data()];
    expect(Math.max(...Array.from(a, (x, i) => Math.abs(x - (b[i] as number))))).toBeLessThanOrEqual(1e-5);
    expect([fused.attentions, unfused.attentions?.length]).toEqual([undefined, 3]);
    [fused.lastHiddenState, fused.poolerOutput, unfused.lastHiddenState, unfused.poolerOutput, ...unfused.attentions!].forEach((t) => t.dispose());
    expect(await leaksOf(() => { const out = model.forward(inputs); out.lastHiddenState.dispose(); out.poolerOutput.dispose(); })).toEqual({ tensors: 0, bytes: 0 });
  });

  it('keeps the unfused attention in training mode (dropout, gradients)', async () => {
    model.train();
    try {
      const { kernelNames } = await profile(() => { const out = model.forward(inputs); return [out.lastHiddenState, out.poolerOutput]; });
      expect(kernelNames).toContain('AttnkitMaskedSoftmax');
    } finally {
      model.eval();
    }
  });

  it('runs MPNet (relative position bias [1, H, T, T]) fused too, matching its weights path within 1e-5', async () => {
    const config = parseEncoderConfig({ model_type: 'mpnet', vocab_size: 40, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 4, intermediate_size: 32, max_position_embeddings: 16, hidden_act: 'gelu', relative_attention_num_buckets: 32, layer_norm_eps: 1e-5, pad_token_id: 1 });
    const mpnet = new MPNetModel(config, undefined, { seed: 5 });
    const [fused, unfused] = [mpnet.forward(inputs), mpnet.forward({ ...inputs, outputAttentions: true })];
    const [a, b] = [await fused.lastHiddenState.data(), await unfused.lastHiddenState.data()];
    expect(Math.max(...Array.from(a, (x, i) => Math.abs(x - (b[i] as number))))).toBeLessThanOrEqual(1e-5);
    [fused, unfused].forEach((out) => [out.lastHiddenState, out.poolerOutput, ...(out.attentions ?? [])].forEach((t) => t?.dispose()));
    mpnet.dispose();
  });
});
