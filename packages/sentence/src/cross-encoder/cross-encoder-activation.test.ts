import { tensor2d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { activationOfTorchPath, applyCrossEncoderActivation, CROSS_ENCODER_ACTIVATIONS } from './cross-encoder-activation.js';

beforeAll(() => useBackend('cpu'));

describe('CrossEncoder activations', () => {
  it('reads the dotted paths sentence-transformers saves, and no other', () => {
    expect(['torch.nn.modules.activation.Sigmoid', 'torch.nn.modules.linear.Identity', 'torch.nn.Tanh', 'torch.nn.modules.activation.ReLU', 'torch.nn.modules.activation.Softmax'].map(activationOfTorchPath)).toEqual(['sigmoid', 'identity', 'tanh', 'relu', 'softmax']);
    expect(['torch.nn.modules.activation.GELU', 'torch.nn.Sigmoidx', 'numpy.Sigmoid', 'torch.nn.modules.activation.__proto__'].map(activationOfTorchPath)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('applies each to logits [B, L] (softmax over the labels, as torch.nn.Softmax() on a matrix), leaking nothing', async () => {
    const logits = tensor2d([[0, 2], [-1, 1]]);
    const want: Record<string, number[]> = {
      identity: [0, 2, -1, 1],
      sigmoid: [0.5, 1 / (1 + Math.exp(-2)), 1 / (1 + Math.exp(1)), 1 / (1 + Math.exp(-1))],
      tanh: [0, Math.tanh(2), Math.tanh(-1), Math.tanh(1)],
      relu: [0, 2, 0, 1],
      softmax: [1 / (1 + Math.exp(2)), 1 / (1 + Math.exp(-2)), 1 / (1 + Math.exp(2)), 1 / (1 + Math.exp(-2))],
    };
    expect(Object.keys(want)).toEqual([...CROSS_ENCODER_ACTIVATIONS]);
    for (const name of CROSS_ENCODER_ACTIVATIONS) {
      const out = applyCrossEncoderActivation(logits, name);
      Array.from(await out.data()).forEach((v, i) => expect(v).toBeCloseTo(want[name]![i]!, 6));
      out.dispose();
      expect(await leaksOf(() => applyCrossEncoderActivation(logits, name).dispose())).toEqual({ tensors: 0, bytes: 0 });
    }
    logits.dispose();
  });
});
