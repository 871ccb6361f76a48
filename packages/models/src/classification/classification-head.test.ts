import { gelu } from '@attnkit/nn';
import { reshape, slice, tensor3d, tanh, tidy } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { parseSequenceClassificationConfig } from './classification-config.js';
import { ClassificationHead } from './classification-head.js';

const config = parseSequenceClassificationConfig({ model_type: 'roberta', vocab_size: 10, hidden_size: 4, num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 8, max_position_embeddings: 8, pad_token_id: 1, id2label: { 0: 'a', 1: 'b', 2: 'c' } });

beforeAll(() => useBackend('cpu'));

describe('ClassificationHead', () => {
  it('has the keys dense.* and out_proj.*, and reads only the first token: out_proj(act(dense(h[:, 0])))', async () => {
    for (const [name, act] of [['tanh', tanh], ['gelu', gelu]] as const) {
      const head = new ClassificationHead(config, name);
      expect(head.namedParameters().map(([k, p]) => [k, p.shape])).toEqual([['dense.weight', [4, 4]], ['dense.bias', [4]], ['out_proj.weight', [3, 4]], ['out_proj.bias', [3]]]);
      const hidden = tensor3d([[[1, -2, 0.5, 3], [9, 9, 9, 9]], [[0, 1, -1, 2], [-9, -9, -9, -9]]]); // [2, 2, 4]: the second token must not matter
      const logits = head.forward(hidden);
      expect(logits.shape).toEqual([2, 3]);
      const want = tidy(() => head.outProj.forward(act(head.dense.forward(reshape(slice(hidden, [0, 0, 0], [-1, 1, -1]), [2, 4])))));
      expect(Array.from(await logits.data())).toEqual(Array.from(await want.data()));
      expect(await leaksOf(() => head.forward(hidden).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [hidden, logits, want].forEach((t) => t.dispose());
      head.dispose();
    }
  });

  it('refuses an activation transformers does not name', () => {
    expect(() => new ClassificationHead(config, 'tanhh')).toThrow(/ClassificationHead: 'activation' must be/);
  });
});

describe('ClassificationHead.forward refusals', () => {
  it.each([[null], ['x'], [[1, 2]]])('refuses hidden %s by name, leaking nothing', async (hidden) => {
    const head = new ClassificationHead(config, 'tanh');
    expect(await leaksOf(() => { expect(() => head.forward(hidden as never)).toThrow(/^ClassificationHead\.forward: 'hidden' must be a float32 tensor of rank 3 \[B, T, E\]; received /); })).toEqual({ tensors: 0, bytes: 0 });
    head.dispose();
  });
});
