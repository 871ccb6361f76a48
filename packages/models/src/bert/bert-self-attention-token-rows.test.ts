import { randomNormal, reshape, tensor, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { fusedAttention } from '@attnkit/kernels';
import { quantizeLinearLayers } from '@attnkit/nn';
import { leaksOf } from '@attnkit/test-utils';
import type { BertModel } from './bert-model.js';
import { loadBert } from './load-bert.js';

const folder = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/bert-b/', import.meta.url).pathname); // 24 wide, 3 heads

/** What BertSelfAttention computed before it read token rows: q, k, v products, split heads, fusedAttention, merge heads. */
function splitHeadsPath(model: BertModel, hidden: Tensor, mask: Tensor): Tensor {
  const self = model.encoder.get('layer').at(0).attention.get('self');
  return tidy(() => {
    const [b, t, e] = hidden.shape as [number, number, number];
    const split = (x: Tensor) => transpose(reshape(x, [b, t, self.numHeads, e / self.numHeads]), [0, 2, 1, 3]);
    const out = fusedAttention(split(self.query.forward(hidden)), split(self.key.forward(hidden)), split(self.value.forward(hidden)), { mask });
    return reshape(transpose(out, [0, 2, 1, 3]), [b, t, e]);
  });
}

describe('BertSelfAttention on wasm (token rows: fusedAttentionTokens, int8 fusedQkvAttention)', () => {
  let model: BertModel;
  beforeAll(async () => {
    await useBackend('wasm');
    model = await loadBert(folder);
  });
  afterAll(async () => {
    model.dispose();
    await useBackend('cpu');
  });

  it.each(['float32', 'int8'] as const)('%s: equals the split-heads path bit for bit and leaks nothing', async (kind) => {
    if (kind === 'int8') quantizeLinearLayers(model);
    const hidden = randomNormal([2, 5, 24], 0, 1, 'float32', 11);
    const mask = tensor([1, 1, 1, 1, 1, 1, 1, 1, 0, 0], [2, 1, 1, 5], 'bool');
    const self = model.encoder.get('layer').at(0).attention.get('self');
    const want = splitHeadsPath(model, hidden, mask);
    const { context, weights } = self.forward(hidden, mask);
    expect(weights).toBeUndefined();
    expect(context.shape).toEqual([2, 5, 24]);
    expect(Array.from(context.dataSync())).toEqual(Array.from(want.dataSync()));
    expect(await leaksOf(() => self.forward(hidden, mask).context.dispose())).toEqual({ tensors: 0, bytes: 0 });
    [hidden, mask, want, context].forEach((t) => t.dispose());
  });
});
