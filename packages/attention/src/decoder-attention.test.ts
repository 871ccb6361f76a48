import { beforeAll, describe, expect, it, vi } from 'vitest';
import { add as tfAdd, concat, memory, ones, randomNormal, slice, tensor, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { causalMask } from '@attnkit/masks';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { int8Kernel, type Int8KernelName } from '@attnkit/kernels';
import { Int8Linear, RMSNorm, int8QkvFusable, quantizeLinearLayers } from '@attnkit/nn';
import { DecoderAttention } from './decoder-attention.js';
import { KvCache } from './kv-cache.js';
import { RotaryEmbedding } from './rotary-embedding.js';

beforeAll(() => useBackend('cpu'));

describe('DecoderAttention', () => {
  it('names its children as LlamaAttention / Qwen3Attention (q_proj, k_proj, v_proj, o_proj, q_norm, k_norm)', () => {
    const llama = new DecoderAttention({ embedDim: 16, numHeads: 4, numKeyValueHeads: 2 });
    expect(llama.namedParameters().map(([n, p]) => [n, p.shape])).toEqual([['q_proj.weight', [16, 16]], ['k_proj.weight', [8, 16]], ['v_proj.weight', [8, 16]], ['o_proj.weight', [16, 16]]]);
    const qwen3 = new DecoderAttention({ embedDim: 12, numHeads: 4, numKeyValueHeads: 1, headDim: 8, queryKeyNorm: true });
    expect(qwen3.namedParameters().map(([n, p]) => [n, p.shape])).toEqual([['q_proj.weight', [32, 12]], ['k_proj.weight', [8, 12]], ['v_proj.weight', [8, 12]], ['o_proj.weight', [12, 32]], ['q_norm.weight', [8]], ['k_norm.weight', [8]]]);
    const qwen2 = new DecoderAttention({ embedDim: 8, numHeads: 2, bias: true, outputBias: false });
    expect(qwen2.namedParameters().map(([n]) => n)).toEqual(['q_proj.weight', 'q_proj.bias', 'k_proj.weight', 'k_proj.bias', 'v_proj.weight', 'v_proj.bias', 'o_proj.weight']);
    [llama, qwen3, qwen2].forEach((m) => m.dispose());
  });

  it('maps [B, T, E] to [B, T, E] with or without rotary and weights, the fused and unfused paths agreeing, leaking nothing', async () => {
    const attention = new DecoderAttention({ embedDim: 16, numHeads: 4, numKeyValueHeads: 2, seed: 1 });
    const rotary = new RotaryEmbedding({ headDim: 4 });
    const x = randomNormal([2, 5, 16], 0, 1, 'float32', 2);
    const ids = tensor([[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]], undefined, 'int32');
    const positionEmbeddings = rotary.forward(ids);
    const mask = causalMask(5, 5);
    const withWeights = attention.forward(x, { positionEmbeddings, attentionMask: mask, returnWeights: true });
    const plain = attention.forward(x, { positionEmbeddings, attentionMask: mask });
    expect(withWeights.output.shape).toEqual([2, 5, 16]);
    expect(withWeights.attentionWeights?.shape).toEqual([2, 4, 5, 5]);
    expect(plain.attentionWeights).toBeUndefined();
    expect(maxDifference(await plain.output.data(), await withWeights.output.data()).maxAbsDiff).toBeLessThan(1e-6);
    expect(await leaksOf(() => attention.forward(x, { positionEmbeddings, attentionMask: mask }).output.dispose())).toEqual({ tensors: 0, bytes: 0 });
    expect(await leaksOf(() => attention.forward(x).output.dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, ids, positionEmbeddings.cos, positionEmbeddings.sin, mask, withWeights.output, withWeights.attentionWeights!, plain.output].forEach((t) => t.dispose());
    [attention, rotary].forEach((m) => m.dispose());
  });

  it('loads a checkpoint by its keys, strictly', () => {
    const error = thrown(() => new DecoderAttention({ embedDim: 4, numHeads: 2 }, { 'q_proj.weight': zeros([4, 4]) }));
    expect(error.name).toBe('StateDictError');
    expect(error.message).toMatch(/^DecoderAttention: the state dict does not fit the module\. 3 missing: k_proj\.weight, v_proj\.weight, o_proj\.weight\./);
  });

  it.each([
    [{ embedDim: 16, numHeads: 4, numKeyValueHeads: 3 }, "DecoderAttention: 'numKeyValueHeads' must be a divisor of numHeads = 4; received numKeyValueHeads=3."],
    [{ embedDim: 10, numHeads: 4 }, "DecoderAttention: 'embedDim' must be divisible by numHeads = 4, or a headDim given; received embedDim=10."],
    [{ embedDim: 16, numHeads: 4, dropout: 1 }, "DecoderAttention: 'dropout' must be a rate in [0, 1); received number 1."],
    [{ embedDim: 16, numHeads: 4, qkNorm: true }, /^DecoderAttention: 'config' must be an object with only the keys embedDim, .*; received the unknown key 'qkNorm'\./],
    [{ embedDim: 16, numHeads: 4, queryKeyNorm: true, rmsNormEps: 0 }, "RMSNorm: 'eps' must be a finite number > 0; received number 0."],
  ])('refuses %j with a typed error, leaking nothing', (config, message) => {
    const before = memory().numTensors;
    const error = thrown(() => new DecoderAttention(config as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(memory().numTensors).toBe(before);
  });

  it('checks its call: the input width, the options, the cache', () => {
    const attention = new DecoderAttention({ embedDim: 8, numHeads: 2 });
    const [x, flat, narrow] = [ones([1, 3, 8]), ones([3, 8]), ones([1, 3, 6])];
    expect(thrown(() => attention.forward(narrow)).message).toBe("DecoderAttention.forward: 'hiddenStates' must be a float32 tensor [..., embedDim] with embedDim = 8; received [1, 3, 6].");
    expect(thrown(() => attention.forward(flat)).message).toBe("DecoderAttention.forward: 'hiddenStates' must be [B, T, E]; received [3, 8].");
    expect(thrown(() => attention.forward(x, { mask: x } as never)).message).toMatch(/^DecoderAttention\.forward: 'options' must be an object with only the keys positionEmbeddings, .*; received the unknown key 'mask'\. Did you mean 'attentionMask'\?$/);
    expect(thrown(() => attention.forward(x, { cache: {} as never })).message).toBe("DecoderAttention.forward: 'cache' must be a KvCache; received Object.");
    [x, flat, narrow].forEach((t) => t.dispose());
    attention.dispose();
  });
});

describe('DecoderAttention quantized (quantizeLinearLayers)', () => {
  it('runs q_proj, k_proj and v_proj as one int8 product, bit for bit the three, with biases, q/k norms and rotary, leaking nothing', async () => {
    for (const config of [{ embedDim: 16, numHeads: 4, numKeyValueHeads: 2, seed: 5 }, { embedDim: 12, numHeads: 4, numKeyValueHeads: 1, headDim: 8, queryKeyNorm: true, bias: true, seed: 6 }]) {
      const [fused, separate] = [0, 1].map(() => new DecoderAttention(config));
      quantizeLinearLayers(fused!);
      quantizeLinearLayers(separate!);
      const k = separate!.kProj as unknown as Int8Linear; // the same values under an explicit kernel name: not fusable, so three products
      separate!.replaceModule('k_proj', new Int8Linear(k.weight, k.bias, { kernel: int8Kernel(undefined, 'test').name as Int8KernelName }));
      expect([int8QkvFusable(fused!.qProj, fused!.kProj, fused!.vProj), int8QkvFusable(separate!.qProj, separate!.kProj, separate!.vProj)]).toEqual([true, false]);
      const x = randomNormal([2, 5, config.embedDim], 0, 1, 'float32', 7);
      const rotary = new RotaryEmbedding({ headDim: config.headDim ?? config.embedDim / config.numHeads });
      const positionEmbeddings = rotary.forward(tensor([[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]], [2, 5], 'int32'));
      const options = { positionEmbeddings, attentionMask: causalMask(5, 5) };
      const [a, b] = [fused!.forward(x, options).output, separate!.forward(x, options).output];
      expect(Array.from(await a.data())).toEqual(Array.from(await b.data()));
      expect(await leaksOf(() => fused!.forward(x, options).output.dispose())).toEqual({ tensors: 0, bytes: 0 });
      [a, b, x, positionEmbeddings.cos, positionEmbeddings.sin, options.attentionMask].forEach((t) => t.dispose());
      [fused, separate].forEach((m) => m!.dispose());
    }
  });
});

describe('DecoderAttention decoding on wasm', () => {
  it('takes a one-position step through KvCache.attendStep (one kernel), with the composed path\'s numbers bit for bit (float and fused int8 projections, a padded row, Qwen3\'s q/k norms)', async () => {
    await useBackend('wasm');
    for (const [quantize, qwen3] of [[false, false], [true, false], [false, true], [true, true]] as const) {
      const layer = new DecoderAttention(qwen3 ? { embedDim: 16, numHeads: 4, numKeyValueHeads: 2, headDim: 8, queryKeyNorm: true, rmsNormEps: 1e-6, seed: 7 } : { embedDim: 16, numHeads: 4, numKeyValueHeads: 2, bias: true, seed: 5 });
      if (qwen3) [layer.qNorm!, layer.kNorm!].forEach((norm, i) => norm.weight.assign(randomNormal([8], 1, 0.5, 'float32', 20 + i))); // weights away from ones
      if (quantize) quantizeLinearLayers(layer);
      const rotary = new RotaryEmbedding({ headDim: qwen3 ? 8 : 4 });
      const x = randomNormal([2, 7, 16], 0, 1, 'float32', 8);
      const decode = (): Tensor => {
        const cache = new KvCache({ numLayers: 1, maxLength: 8 });
        const outputs: Tensor[] = [];
        for (const [from, to, rows] of [[0, 5, [[0, 1, 1, 1, 1], [1, 1, 1, 1, 1]]], [5, 6, [[1], [1]]], [6, 7, [[1], [1]]]] as const) {
          const step = cache.step(rows as unknown as number[][]);
          outputs.push(tidy(() => layer.forward(slice(x, [0, from, 0], [2, to - from, 16]), { positionEmbeddings: rotary.forward(step.positionIds), attentionMask: step.attentionMask, cache }).output));
          [step.positionIds, step.attentionMask].forEach((t) => t.dispose());
        }
        cache.dispose();
        const out = concat(outputs, 1);
        outputs.forEach((t) => t.dispose());
        return out;
      };
      const spy = vi.spyOn(KvCache.prototype, 'attendStep');
      const fast = decode();
      expect(spy.mock.results.map((r) => r.value === undefined), `quantize ${quantize}, qwen3 ${qwen3}`).toEqual([false, false]); // both one-position steps took the kernel
      spy.mockReturnValue(undefined); // the composed path: split, rotary, append, cachedAttentionOutput
      const composed = decode();
      spy.mockRestore();
      expect(Array.from(await fast.data()), `quantize ${quantize}, qwen3 ${qwen3}`).toEqual(Array.from(await composed.data()));
      [fast, composed, x].forEach((t) => t.dispose());
      [layer, rotary].forEach((m) => m.dispose());
    }
    await useBackend('cpu');
  });
});

describe('DecoderAttention with inputNorm and residual (a pre-norm layer\'s block in one call)', () => {
  it('is residual + attention(norm(x)) bit for bit, prefill and decoding steps, float and int8, on cpu and wasm, leaking nothing', async () => {
    for (const backend of ['cpu', 'wasm'] as const) {
      await useBackend(backend);
      for (const quantize of [false, true]) {
        const layer = new DecoderAttention({ embedDim: 16, numHeads: 4, numKeyValueHeads: 2, headDim: 8, queryKeyNorm: true, rmsNormEps: 1e-6, seed: 9 });
        const norm = new RMSNorm(16, { eps: 1e-5 });
        norm.weight.assign(randomNormal([16], 1, 0.3, 'float32', 30)); // away from ones: a norm left out shows
        if (quantize) quantizeLinearLayers(layer);
        const rotary = new RotaryEmbedding({ headDim: 8 });
        const x = randomNormal([2, 7, 16], 0, 2, 'float32', 31);
        const run = (fused: boolean): Tensor => {
          const cache = new KvCache({ numLayers: 1, maxLength: 8 });
          const outputs: Tensor[] = [];
          for (const [from, to] of [[0, 5], [5, 6], [6, 7]] as const) {
            const step = cache.step([Array(to - from).fill(1), Array(to - from).fill(1)]);
            outputs.push(tidy(() => {
              const hidden = slice(x, [0, from, 0], [2, to - from, 16]);
              const options = { positionEmbeddings: rotary.forward(step.positionIds), attentionMask: step.attentionMask, cache };
              return fused ? layer.forward(hidden, { ...options, inputNorm: norm, residual: hidden }).output : tfAdd(hidden, layer.forward(norm.forward(hidden), options).output);
            }));
            [step.positionIds, step.attentionMask].forEach((t) => t.dispose());
          }
          cache.dispose();
          const out = concat(outputs, 1);
          outputs.forEach((t) => t.dispose());
          return out;
        };
        const [fused, composed] = [run(true), run(false)];
        expect(Array.from(await fused.data()), `${backend} quantize ${quantize}`).toEqual(Array.from(await composed.data()));
        expect(await leaksOf(() => run(true).dispose())).toEqual({ tensors: 0, bytes: 0 });
        expect(thrown(() => layer.forward(x, { residual: slice(x, [0, 0, 0], [2, 6, 16]) })).message).toBe("DecoderAttention.forward: 'residual' must be a float32 tensor of the output's shape [2, 7, 16]; received [2, 6, 16].");
        expect(thrown(() => layer.forward(x, { inputNorm: 'rms' as never })).message).toMatch(/^DecoderAttention\.forward: 'inputNorm' must be a norm module with forward\(x\)/);
        [fused, composed, x].forEach((t) => t.dispose());
        [layer, norm, rotary].forEach((m) => m.dispose());
      }
    }
    await useBackend('cpu');
  });
});
