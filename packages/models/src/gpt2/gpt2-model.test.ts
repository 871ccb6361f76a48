import { add, concat, randomNormal, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KvCache } from '@attnkit/attention';
import { useBackend } from '@attnkit/backends';
import { loadCausalLM } from '../load/load-causal-lm.js';
import type { CausalLM } from '../decoder/decoder-for-causal-lm.js';
import { leaksOf, thrown } from '@attnkit/test-utils';
import type { GPT2Block } from './gpt2-model.js';

const FOLDER = new URL('../../../../tooling/reference/fixtures/decoders/gpt2/', import.meta.url).pathname;
const IDS = [[0, 0, 5, 9, 14, 3], [7, 2, 5, 11, 4, 8]];
const MASK = [[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]]; // row 0 left-padded by 2

describe('GPT2Attention decoding on wasm', () => {
  let model: CausalLM;
  beforeAll(async () => {
    await useBackend('wasm');
    model = await loadCausalLM(FOLDER);
  });
  afterAll(async () => {
    model.dispose();
    await useBackend('cpu');
  });

  /** The prompt's first 4 positions, then one position at a time: every step's logits, concatenated. */
  function decode(): Tensor {
    const cache = model.createCache({ maxLength: 6 });
    const parts: Tensor[] = [];
    for (const [from, to] of [[0, 4], [4, 5], [5, 6]] as const) {
      const cut = (rows: number[][]) => rows.map((row) => row.slice(from, to));
      parts.push(model.forward({ inputIds: cut(IDS), attentionMask: cut(MASK), pastKeyValues: cache }).logits);
    }
    cache.dispose();
    const out = tidy(() => concat(parts, 1));
    parts.forEach((t) => t.dispose());
    return out;
  }

  it('takes each one-position step through KvCache.attendStep (one kernel), with the composed path\'s logits bit for bit', async () => {
    const spy = vi.spyOn(KvCache.prototype, 'attendStep');
    const fast = decode();
    const layers = model.config.numHiddenLayers;
    expect(spy.mock.results.filter((r) => r.value !== undefined)).toHaveLength(2 * layers); // two steps, every layer through the kernel
    spy.mockReturnValue(undefined); // the composed path: split, heads, append, cachedAttentionOutput
    const composed = decode();
    spy.mockRestore();
    expect(Array.from(await fast.data())).toEqual(Array.from(await composed.data()));
    [fast, composed].forEach((t) => t.dispose());
  });
});

describe('GPT2Block: ln_1 and ln_2 inside the int8 products, the residual sums after them', () => {
  afterAll(() => useBackend('cpu'));

  it.each(['cpu', 'wasm'] as const)('equals x + attn(ln_1(x)), then h + mlp(ln_2(h)), bit for bit, float and int8, leaking nothing (%s)', async (backend) => {
    await useBackend(backend);
    for (const quantize of [false, true]) {
      const model = await loadCausalLM(FOLDER, quantize ? { quantize: 'int8' } : {});
      const block = model.namedModules().find(([name]) => name === 'transformer.h.0')![1] as GPT2Block;
      const width = model.config.hiddenSize;
      const hidden = randomNormal([2, 3, width], 0, 1, 'float32', 3);
      const composed = tidy(() => {
        const attended = add(hidden, block.attn.forward(block.ln1.forward(hidden), undefined, undefined));
        return add(attended, block.mlp.forward(block.ln2.forward(attended)));
      });
      const fused = block.forward(hidden, undefined, undefined);
      expect(Array.from(await fused.data()), `${backend} quantize ${quantize}`).toEqual(Array.from(await composed.data()));
      expect(await leaksOf(() => block.forward(hidden, undefined, undefined).dispose())).toEqual({ tensors: 0, bytes: 0 });
      expect(thrown(() => block.mlp.forward(hidden, { residual: randomNormal([2, 3, width + 1]) })).message).toBe(`GPT2MLP.forward: 'residual' must be a float32 tensor of the output's shape [2, 3, ${width}]; received [2, 3, ${width + 1}].`);
      expect(thrown(() => block.attn.forward(hidden, undefined, undefined, { norm: block.ln1 } as never)).message).toMatch(/^GPT2Attention\.forward: 'options' must be an object with only the keys inputNorm, residual; received the unknown key 'norm'/);
      [hidden, fused, composed].forEach((t) => t.dispose());
      model.dispose();
    }
  });
});
