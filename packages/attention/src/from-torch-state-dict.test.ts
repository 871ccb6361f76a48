import { randomNormal, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { MultiHeadAttention } from './multi-head-attention.js';
import { SafetensorsError, writeSafetensors } from '@attnkit/hub';

beforeAll(() => useBackend('cpu'));

function stateDict(e: number, extra: Record<string, number[]> = {}, drop: string[] = []): Record<string, Tensor> {
  const shapes: Record<string, number[]> = { in_proj_weight: [3 * e, e], in_proj_bias: [3 * e], 'out_proj.weight': [e, e], 'out_proj.bias': [e], ...extra };
  return Object.fromEntries(Object.entries(shapes).filter(([n]) => !drop.includes(n)).map(([n, s], i) => [n, randomNormal(s, 0, 1, 'float32', i)]));
}

describe('MultiHeadAttention.fromTorchStateDict', () => {
  it('reads a safetensors file exactly as the same record of tensors, and leaks nothing', async () => {
    const record = stateDict(8);
    const bytes = writeSafetensors(Object.fromEntries(Object.entries(record).map(([n, t]) => [`layer.self_attn.${n}`, { shape: t.shape, values: t.dataSync() as Float32Array }])));
    const fromRecord = MultiHeadAttention.fromTorchStateDict(record, { numHeads: 2 });
    const fromFile = MultiHeadAttention.fromTorchStateDict(bytes, { numHeads: 2, prefix: 'layer.self_attn.' });
    const x = randomNormal([2, 3, 8], 0, 1, 'float32', 9);
    const [a, b] = [fromRecord.forward(x).output, fromFile.forward(x).output];
    expect(maxDifference(await a.data(), await b.data()).maxAbsDiff).toBe(0);
    expect(fromFile.config).toMatchObject({ embedDim: 8, numHeads: 2, projections: 'fused', bias: true });
    expect(await leaksOf(() => MultiHeadAttention.fromTorchStateDict(bytes, { numHeads: 2, prefix: 'layer.self_attn.' }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, a, b, ...Object.values(record)].forEach((t) => t.dispose());
    fromRecord.dispose();
    fromFile.dispose();
  });

  it('infers kdim, vdim and bias from separate projections', () => {
    const sd = Object.fromEntries(Object.entries({ q_proj_weight: [12, 12], k_proj_weight: [12, 10], v_proj_weight: [12, 6], 'out_proj.weight': [12, 12] }).map(([n, s]) => [n, zeros(s)]));
    const mha = MultiHeadAttention.fromTorchStateDict(sd, { numHeads: 3 });
    expect(mha.config).toMatchObject({ embedDim: 12, keyDim: 10, valueDim: 6, bias: false, projections: 'separate' });
    mha.dispose();
    Object.values(sd).forEach((t) => t.dispose());
  });

  it.each<[string, () => Record<string, Tensor>, string]>([
    ['a missing bias and a mis-shaped weight', () => ({ ...stateDict(8, { 'out_proj.bias': [7] }, ['in_proj_bias']) }),
      "MultiHeadAttention.fromTorchStateDict: 'stateDict' must be the weights of nn.MultiheadAttention(embed_dim=8, num_heads=2); received missing in_proj_bias [24]; out_proj.bias is [7], expected [8]."],
    ['add_bias_kv weights attnkit does not have', () => stateDict(8, { bias_k: [1, 1, 8] }),
      "MultiHeadAttention.fromTorchStateDict: 'stateDict' must be the weights of nn.MultiheadAttention(embed_dim=8, num_heads=2); received unexpected bias_k (attnkit has no such weight; add_bias_kv and add_zero_attn are not supported)."],
    ['no out_proj.weight', () => stateDict(8, {}, ['out_proj.weight']),
      "MultiHeadAttention.fromTorchStateDict: 'stateDict' must be an nn.MultiheadAttention state dict with 'out_proj.weight'; received keys in_proj_weight, in_proj_bias, out_proj.bias."],
    ['a missing in_proj_weight half', () => stateDict(8, { in_proj_weight: [16, 8] }),
      "MultiHeadAttention.fromTorchStateDict: 'stateDict' must be the weights of nn.MultiheadAttention(embed_dim=8, num_heads=2); received in_proj_weight is [16, 8], expected [24, 8]."],
  ])('rejects %s, listing every problem', (_, make, message) => {
    const sd = make();
    const error = thrown(() => MultiHeadAttention.fromTorchStateDict(sd, { numHeads: 2 }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    Object.values(sd).forEach((t) => t.dispose());
  });

  it('summarises thousands of unexpected weights in a bounded message', () => {
    const sd = stateDict(8);
    const extra = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`layers.${i}.weight`, zeros([1])]));
    const error = thrown(() => MultiHeadAttention.fromTorchStateDict({ ...sd, ...extra }, { numHeads: 2 }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/received unexpected layers\.0\.weight .*; unexpected layers\.7\.weight .* and 4992 more\.$/);
    expect(error.message.length).toBeLessThan(2_000);
    [...Object.values(sd), ...Object.values(extra)].forEach((t) => t.dispose());
  });

  it('rejects numHeads that do not divide the width read from the weights, non-tensors, and corrupt files', async () => {
    const sd = stateDict(8);
    expect(thrown(() => MultiHeadAttention.fromTorchStateDict(sd, { numHeads: 3 })).message).toMatch(/^MultiHeadAttention\.fromTorchStateDict: 'embedDim' must be divisible by numHeads = 3; received embedDim=8\./);
    expect(thrown(() => MultiHeadAttention.fromTorchStateDict({ ...sd, 'out_proj.bias': [1, 2] as never }, { numHeads: 2 })).message).toBe(
      "MultiHeadAttention.fromTorchStateDict: 'stateDict['out_proj.bias']' must be a tensor; received object.",
    );
    expect(await leaksOf(() => { thrown(() => MultiHeadAttention.fromTorchStateDict(Uint8Array.of(1, 2), { numHeads: 2 })); })).toEqual({ tensors: 0, bytes: 0 });
    expect(thrown(() => MultiHeadAttention.fromTorchStateDict(Uint8Array.of(1, 2), { numHeads: 2 }))).toBeInstanceOf(SafetensorsError);
    Object.values(sd).forEach((t) => t.dispose());
  });
});

describe('fromTorchStateDict options', () => {
  it('refuses an unknown option key instead of ignoring it', async () => {
    const leaks = await leaksOf(() => {
      const error = thrown(() => MultiHeadAttention.fromTorchStateDict({}, { numHeads: 2, prefx: 'layer.' } as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe("MultiHeadAttention.fromTorchStateDict: 'options' must be an object with only the keys numHeads, dropout, scorer, layout, prefix; received the unknown key 'prefx'. Did you mean 'prefix'?");
    });
    expect(leaks.tensors).toBe(0);
  });
  it('refuses a prefix that is no string and a scorer that is no Scorer before reading the weights', async () => {
    const record = stateDict(4);
    expect(await leaksOf(() => {
      expect(thrown(() => MultiHeadAttention.fromTorchStateDict(record, { numHeads: 2, prefix: null as never })).message).toBe("MultiHeadAttention.fromTorchStateDict: 'prefix' must be a key prefix to strip (a string such as 'encoder.self_attn.'); received null.");
      const error = thrown(() => MultiHeadAttention.fromTorchStateDict(record, { numHeads: 2, scorer: 'x' as never }));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^MultiHeadAttention\.fromTorchStateDict: 'scorer' must be a Scorer/);
    })).toEqual({ tensors: 0, bytes: 0 });
    Object.values(record).forEach((t) => t.dispose());
  });
});
