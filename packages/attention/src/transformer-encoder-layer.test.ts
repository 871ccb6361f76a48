import { memory, randomNormal, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { paddingMask } from '@attnkit/masks';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { TransformerEncoder } from './transformer-encoder.js';
import { TransformerEncoderLayer } from './transformer-encoder-layer.js';

beforeAll(() => useBackend('cpu'));
const config = { embedDim: 8, numHeads: 2, feedForwardDim: 16, dropout: 0.5, seed: 3 };

describe('TransformerEncoderLayer', () => {
  it('names its parameters as PyTorch and returns per-head weights on request, leaking nothing', async () => {
    const layer = new TransformerEncoderLayer(config);
    expect(layer.namedParameters().map(([n]) => n)).toEqual([
      'self_attn.in_proj_weight', 'self_attn.in_proj_bias', 'self_attn.out_proj.weight', 'self_attn.out_proj.bias',
      'linear1.weight', 'linear1.bias', 'linear2.weight', 'linear2.bias', 'norm1.weight', 'norm1.bias', 'norm2.weight', 'norm2.bias',
    ]);
    const x = randomNormal([2, 5, 8], 0, 1, 'float32', 1);
    const mask = paddingMask(tensor([5, 3], undefined, 'int32'), 5);
    const { output, attentionWeights } = layer.forward(x, { attentionMask: mask, outputAttentions: true });
    expect([output.shape, attentionWeights!.shape]).toEqual([[2, 5, 8], [2, 2, 5, 5]]);
    expect(Array.from(await attentionWeights!.data()).slice(5 * 5 * 2, 5 * 5 * 2 + 5).slice(3)).toEqual([0, 0]); // padded keys of sequence 2
    expect(await leaksOf(() => layer.forward(x, { attentionMask: mask }).output.dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, mask, output, attentionWeights!].forEach((t) => t.dispose());
    layer.dispose();
  });

  it('applies dropout only in training mode, down to the attention weights', async () => {
    const layer = new TransformerEncoderLayer(config);
    const x = randomNormal([2, 5, 8], 0, 1, 'float32', 2);
    const evalA = layer.forward(x, { outputAttentions: true });
    const evalB = layer.forward(x);
    expect(maxDifference(await evalA.output.data(), await evalB.output.data()).maxAbsDiff).toBe(0);
    layer.train();
    expect(layer.selfAttn.training).toBe(true);
    const trained = layer.forward(x, { outputAttentions: true });
    expect(maxDifference(await trained.output.data(), await evalA.output.data()).maxAbsDiff).toBeGreaterThan(1e-3);
    const weights = Array.from(await trained.attentionWeights!.data());
    expect(weights.filter((w) => w === 0).length).toBeGreaterThan(weights.length / 5); // p = 0.5 on the probabilities
    [x, evalA.output, evalA.attentionWeights!, evalB.output, trained.output, trained.attentionWeights!].forEach((t) => t.dispose());
    layer.dispose();
  });

  it('refuses bad configs and inputs with typed errors, leaking nothing', () => {
    const before = memory().numTensors;
    expect(thrown(() => new TransformerEncoderLayer({ ...config, numHeads: 3 })).message).toMatch(/^MultiHeadAttention: 'embedDim' must be divisible by numHeads = 3; received embedDim=8\./);
    expect(thrown(() => new TransformerEncoderLayer({ ...config, activation: 'swiglu' }))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => new TransformerEncoder({ ...config, numLayers: 0 })).message).toMatch(/^TransformerEncoder: 'numLayers' must be an integer ≥ 1/);
    expect(memory().numTensors).toBe(before);
    const layer = new TransformerEncoderLayer(config);
    const [narrow, flat] = [zeros([2, 5, 6]), zeros([10, 8])];
    expect(thrown(() => layer.forward(narrow)).message).toBe("TransformerEncoderLayer.forward: 'x' must be [B, T, E] with E = embedDim = 8; received [2, 5, 6].");
    expect(thrown(() => layer.forward(flat)).message).toMatch(/^TransformerEncoderLayer\.forward: 'x' must be a float32 tensor of rank 3 \[B, T, E\]; received float32 tensor of rank 2/);
    expect(thrown(() => layer.forwardTorch(narrow, { batchFirst: 'yes' as never })).message).toBe("TransformerEncoderLayer.forwardTorch: 'batchFirst' must be a boolean; received string 'yes'.");
    const bias = zeros([3, 5, 5]);
    const x = zeros([2, 5, 8]);
    expect(thrown(() => layer.forward(x, { attentionBias: bias })).message).toMatch(/^MultiHeadAttention\.forward: 'attentionBias' must be a float32 tensor of rank 2 or 4/);
    [narrow, flat, bias, x].forEach((t) => t.dispose());
    layer.dispose();
    expect(memory().numTensors).toBe(before);
  });
});

describe('encoder call options', () => {
  const small = { embedDim: 4, numHeads: 2, feedForwardDim: 8, dropout: 0, seed: 1 };
  it('refuses unknown keys (PyTorch spellings, isCausal) and non-boolean flags with typed errors, leaking nothing', async () => {
    const layer = new TransformerEncoderLayer(small);
    const encoder = new TransformerEncoder({ ...small, numLayers: 2 });
    const x = zeros([1, 3, 4]);
    const padding = tensor([[false, false, true]]);
    const leaks = await leaksOf(() => {
      const torchKey = thrown(() => layer.forwardTorch(x, { src_key_padding_mask: padding } as never));
      expect(torchKey).toBeInstanceOf(InvalidArgumentError);
      expect(torchKey.message).toBe("TransformerEncoderLayer.forwardTorch: 'options' must be an object with only the keys mask, srcKeyPaddingMask, batchFirst, additiveBinaryMasks; received the unknown key 'src_key_padding_mask'. Did you mean 'srcKeyPaddingMask'?");
      const causal = thrown(() => layer.forwardTorch(x, { isCausal: true } as never));
      expect(causal).toBeInstanceOf(InvalidArgumentError);
      expect(causal.message).toMatch(/^TransformerEncoderLayer\.forwardTorch: 'isCausal' must be absent: causal attention is a 'mask' here; received boolean true\. Pass the causal mask itself as 'mask'/);
      expect(thrown(() => encoder.forwardTorch(x, { isCausal: true } as never)).message).toMatch(/^TransformerEncoder\.forwardTorch: 'isCausal' must be absent/);
      expect(thrown(() => encoder.forwardTorch(x, null as never))).toBeInstanceOf(InvalidArgumentError);
      expect(thrown(() => layer.forward(x, { mask: padding } as never)).message).toBe("TransformerEncoderLayer.forward: 'options' must be an object with only the keys attentionMask, attentionBias, outputAttentions; received the unknown key 'mask'. Did you mean 'attentionMask'?");
      expect(thrown(() => layer.forward(x, { outputAttentions: 'yes' } as never)).message).toBe("TransformerEncoderLayer.forward: 'outputAttentions' must be true or false; received string 'yes'.");
      expect(thrown(() => encoder.forward(x, { attention_mask: padding } as never)).message).toBe("TransformerEncoder.forward: 'options' must be an object with only the keys attentionMask, attentionBias, outputHiddenStates, outputAttentions; received the unknown key 'attention_mask'. Did you mean 'attentionMask'?");
      expect(thrown(() => encoder.forward(x, { outputHiddenStates: 1 } as never)).message).toBe("TransformerEncoder.forward: 'outputHiddenStates' must be true or false; received number 1.");
      expect(thrown(() => encoder.forward(x, null as never))).toBeInstanceOf(InvalidArgumentError);
    });
    expect(leaks.tensors).toBe(0);
    [x, padding].forEach((t) => t.dispose());
    layer.dispose();
    encoder.dispose();
  });
  it('reads an absent option as its default and refuses null, as every other config', () => {
    for (const key of ['feedForwardDim', 'dropout', 'activation', 'layerNormEps', 'normFirst', 'seed']) {
      const before = memory().numTensors;
      const error = thrown(() => new TransformerEncoderLayer({ ...config, [key]: null } as never));
      expect(error, key).toBeInstanceOf(InvalidArgumentError);
      expect(error.message, key).toMatch(/received null/);
      expect(memory().numTensors, key).toBe(before);
    }
    const gone = zeros([1]);
    gone.dispose();
    expect(thrown(() => new TransformerEncoderLayer({ ...config, seed: gone } as never)).message).toMatch(/^TransformerEncoderLayer: 'seed' must be an integer; received a disposed/);
  });
});
