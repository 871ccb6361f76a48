import { randomNormal, tensor, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { paddingMask } from '@attnkit/masks';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { TransformerEncoder } from './transformer-encoder.js';

beforeAll(() => useBackend('cpu'));

describe('TransformerEncoder', () => {
  it('names layers.N.* and norm.*, returns N + 1 hidden states and N attention maps, and leaks nothing', async () => {
    const encoder = new TransformerEncoder({ embedDim: 8, numHeads: 2, feedForwardDim: 16, numLayers: 3, normFirst: true, finalNorm: true, seed: 1 });
    const names = encoder.namedParameters().map(([n]) => n);
    expect(names[0]).toBe('layers.0.self_attn.in_proj_weight');
    expect(names.slice(-2)).toEqual(['norm.weight', 'norm.bias']);
    expect(names.filter((n) => n.startsWith('layers.2.'))).toHaveLength(12);
    const x = randomNormal([2, 4, 8], 0, 1, 'float32', 3);
    const mask = paddingMask(tensor([4, 2], undefined, 'int32'), 4);
    const out = encoder.forward(x, { attentionMask: mask, outputHiddenStates: true, outputAttentions: true });
    expect([out.lastHiddenState.shape, out.hiddenStates!.length, out.attentions!.map((a) => a.shape)]).toEqual([[2, 4, 8], 4, [[2, 2, 4, 4], [2, 2, 4, 4], [2, 2, 4, 4]]]);
    expect(out.hiddenStates![0]).not.toBe(x); // a copy of the input: disposing the outputs leaves x alone
    [out.lastHiddenState, ...out.hiddenStates!, ...out.attentions!].forEach((t) => t.dispose());
    expect(x.isDisposed).toBe(false);
    expect(await leaksOf(() => encoder.forward(x, { attentionMask: mask }).lastHiddenState.dispose())).toEqual({ tensors: 0, bytes: 0 });
    expect(await leaksOf(() => encoder.forwardTorch(zeros([4, 2, 8]), { batchFirst: false }).dispose())).toEqual({ tensors: 1, bytes: 4 * 2 * 8 * 4 }); // the zeros given
    [x, mask].forEach((t) => t.dispose());
    encoder.dispose();
    const late = zeros([1, 1, 8]);
    expect(thrown(() => encoder.forward(late))).toMatchObject({ name: 'UseAfterDisposeError' });
    late.dispose();
  });
  it('refuses a finalNorm that is no boolean, a tensor included, without reading it', () => {
    const gone = zeros([1]);
    gone.dispose();
    expect(thrown(() => new TransformerEncoder({ embedDim: 8, numHeads: 2, numLayers: 1, finalNorm: gone } as never)).message).toMatch(/^TransformerEncoder: 'finalNorm' must be a boolean; received a disposed/);
    expect(thrown(() => new TransformerEncoder({ embedDim: 8, numHeads: 2, numLayers: 1, finalNorm: null } as never)).message).toBe("TransformerEncoder: 'finalNorm' must be a boolean; received null.");
  });
  it('names its own input when it is no [B, T, E] float32 tensor', () => {
    const encoder = new TransformerEncoder({ embedDim: 8, numHeads: 2, numLayers: 1, seed: 1 });
    const ids = tensor([[1, 2]], [1, 2], 'int32');
    expect(thrown(() => encoder.forward(ids)).message).toMatch(/^TransformerEncoder\.forward: 'x' must be a float32 tensor of rank 3 \[B, T, E\]; received int32/);
    [ids, encoder].forEach((t) => t.dispose());
  });
});
