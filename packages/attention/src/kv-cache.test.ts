import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concat, cos as cosOf, engine, findBackend, memory, ones, randomNormal, reshape, sin as sinOf, slice, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { ROTARY_KERNEL } from '@attnkit/kernels';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { decoderMask, paddingMaskFromIds } from '@attnkit/masks';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { cachedAttentionOutput } from './cached-attention-output.js';
import { DecoderAttention } from './decoder-attention.js';
import { KvCache } from './kv-cache.js';
import { positionIdsFromMask } from './position-ids-from-mask.js';
import { RotaryEmbedding } from './rotary-embedding.js';

const [B, T, E] = [2, 7, 16];
const ROWS = [[0, 0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1]]; // row 0 left-padded by 2
const columns = (from: number, to: number) => ROWS.map((row) => row.slice(from, to));

beforeAll(() => useBackend('cpu'));
afterAll(() => useBackend('cpu'));

/** Where a tensor's data lies in tfjs-wasm's heap (undefined off wasm). */
const heapOffset = (t: Tensor): number | undefined => (findBackend('wasm') as unknown as { dataIdMap: { get(id: object): { memoryOffset: number } | undefined } } | null)?.dataIdMap.get(t.dataId)?.memoryOffset;

/** A grouped-query layer with q/k norm and biases, its rotary, and hidden states [B, T, E]. */
function setup(queryKeyNorm = true) {
  const attention = new DecoderAttention({ embedDim: E, numHeads: 4, numKeyValueHeads: 2, headDim: 4, bias: true, queryKeyNorm, seed: 3 });
  tidy(() => attention.namedParameters().forEach(([, p], i) => p.assign(randomNormal(p.shape, 0, 0.5, 'float32', 10 + i)))); // biases and norms away from 0 and 1
  const rotary = new RotaryEmbedding({ headDim: 4, ropeType: 'llama3', factor: 4, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 4, ropeTheta: 100 });
  return { attention, rotary, x: randomNormal([B, T, E], 0, 1, 'float32', 1) };
}

/** The whole sequence at once: positions from the mask, the decoder mask, no cache. */
function whole(attention: DecoderAttention, rotary: RotaryEmbedding, x: Tensor, slidingWindow?: number): Tensor {
  return tidy(() => {
    const positionIds = positionIdsFromMask(ROWS);
    const attentionMask = decoderMask(T, T, { padding: paddingMaskFromIds(ROWS), slidingWindow });
    return attention.forward(x, { positionEmbeddings: rotary.forward(positionIds), attentionMask }).output;
  });
}

/** The same through a KvCache, in steps of the given lengths; the step outputs concatenated. */
function stepwise(attention: DecoderAttention, rotary: RotaryEmbedding, x: Tensor, lengths: readonly number[], slidingWindow?: number): Tensor {
  const cache = new KvCache({ numLayers: 1, maxLength: T });
  const outputs: Tensor[] = [];
  let start = 0;
  for (const length of lengths) {
    outputs.push(tidy(() => {
      const { positionIds, attentionMask } = cache.step(columns(start, start + length), { slidingWindow });
      const xs = slice(x, [0, start, 0], [B, length, E]); // [B, T, E] -> [B, length, E]
      return attention.forward(xs, { positionEmbeddings: rotary.forward(positionIds), attentionMask, cache }).output;
    }));
    start += length;
  }
  cache.dispose();
  const out = concat(outputs, 1);
  outputs.forEach((t) => t.dispose());
  return out;
}

describe('KvCache', () => {
  it.each(['cpu', 'wasm'])('attention over the cache, step by step, equals attention over the whole left-padded sequence at once (%s)', async (backend) => {
    await useBackend(backend);
    const { attention, rotary, x } = setup();
    for (const slidingWindow of [undefined, 3]) {
      const reference = whole(attention, rotary, x, slidingWindow);
      for (const lengths of [[4, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1], [2, 3, 2]]) {
        const steps = stepwise(attention, rotary, x, lengths, slidingWindow);
        expect(maxDifference(await steps.data(), await reference.data()).maxAbsDiff, `${lengths} window ${slidingWindow}`).toBeLessThan(1e-5);
        steps.dispose();
      }
      reference.dispose();
    }
    [attention, rotary, x].forEach((t) => t.dispose());
  });

  it('continues each row’s positions and keeps the padding of earlier steps in the mask', async () => {
    const cache = new KvCache({ numLayers: 1, maxLength: 8 });
    const first = cache.step([[0, 0, 1], [1, 1, 1]]);
    expect(await first.positionIds.array()).toEqual([[0, 0, 0], [0, 1, 2]]);
    cache.update(0, zeros([2, 1, 3, 2]), zeros([2, 1, 3, 2])).key.dispose();
    const second = cache.step([[1], [1]]);
    expect(await second.positionIds.array()).toEqual([[1], [3]]);
    expect(await second.attentionMask.array()).toEqual([[[[0, 0, 1, 1]]], [[[1, 1, 1, 1]]]]);
    const padding = cache.paddingMask();
    expect(await padding.array()).toEqual([[[[0, 0, 1, 1]]], [[[1, 1, 1, 1]]]]);
    [first.positionIds, first.attentionMask, second.positionIds, second.attentionMask, padding].forEach((t) => t.dispose());
    expect(cache.length).toBe(4);
    cache.dispose();
  });

  it.each(['cpu', 'wasm'])('holds two tensors per layer: the tensor count stays flat step after step, and dispose() frees them (%s)', async (backend) => {
    await useBackend(backend);
    const { attention, rotary, x } = setup();
    const before = memory().numTensors;
    const cache = new KvCache({ numLayers: 2, maxLength: 40 });
    const second = new DecoderAttention({ embedDim: E, numHeads: 4, numKeyValueHeads: 2, headDim: 4, layerIndex: 1, seed: 4 });
    const counts: number[] = [];
    for (let i = 0; i < 12; i++) {
      tidy(() => {
        const { positionIds, attentionMask } = cache.step(i === 0 ? columns(0, 4) : [[1], [1]]);
        const positionEmbeddings = rotary.forward(positionIds);
        const xs = i === 0 ? slice(x, [0, 0, 0], [B, 4, E]) : slice(x, [0, 4 + (i % 3), 0], [B, 1, E]);
        const hidden = attention.forward(xs, { positionEmbeddings, attentionMask, cache }).output;
        second.forward(hidden, { positionEmbeddings, attentionMask, cache });
      });
      counts.push(memory().numTensors);
    }
    const params = second.namedParameters().length;
    expect(new Set(counts)).toEqual(new Set([before + params + 4])); // the second layer's parameters and 2 × 2 cache tensors
    expect(cache.length).toBe(15);
    cache.dispose();
    second.dispose();
    expect(memory().numTensors).toBe(before);
    expect(thrown(() => cache.step([[1], [1]])).name).toBe('UseAfterDisposeError');
    [attention, rotary, x].forEach((t) => t.dispose());
    await useBackend('cpu');
  });

  it('on wasm, a decoding layer without q/k norm (one kernel a step: attendStep) equals the whole left-padded sequence too', async () => {
    await useBackend('wasm');
    const { attention, rotary, x } = setup(false);
    for (const slidingWindow of [undefined, 3]) {
      const reference = whole(attention, rotary, x, slidingWindow);
      for (const lengths of [[4, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1]]) {
        const steps = stepwise(attention, rotary, x, lengths, slidingWindow);
        expect(maxDifference(await steps.data(), await reference.data()).maxAbsDiff, `${lengths} window ${slidingWindow}`).toBeLessThan(1e-5);
        steps.dispose();
      }
      reference.dispose();
    }
    [attention, rotary, x].forEach((t) => t.dispose());
    await useBackend('cpu');
  });

  describe('attendStep: a decoding step\'s attention in one kernel on wasm', () => {
    const [H, Hkv, D] = [6, 2, 8];
    const width = (H + 2 * Hkv) * D;
    /** A 1-layer cache after a prompt of 5 (row 0 left-padded by 2) and the next step, the prompt's keys and values appended. */
    function primed(seed: number) {
      const cache = new KvCache({ numLayers: 1, maxLength: 12 });
      const prompt = cache.step([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]);
      const [k, v] = [randomNormal([2, Hkv, 5, D], 0, 1, 'float32', seed), randomNormal([2, Hkv, 5, D], 0, 1, 'float32', seed + 1)];
      const at = heapOffset(cache.append(0, k, v).key); // on wasm: where the layer's keys lie
      const step = cache.step([[1], [1]]);
      const angles = randomNormal([2, 1, D], 0, 1, 'float32', seed + 2);
      const [cos, sin] = [cosOf(angles), sinOf(angles)];
      const qkv = randomNormal([2, 1, width], 0, 1, 'float32', seed + 3);
      [prompt.positionIds, prompt.attentionMask, step.positionIds, k, v, angles].forEach((t) => t.dispose());
      return { cache, step, cos, sin, qkv, at };
    }
    const request = (p: ReturnType<typeof primed>) => ({ query: p.qkv, key: p.qkv, value: p.qkv, heads: H, queryAt: 0, keyAt: H * D, valueAt: (H + Hkv) * D, cos: p.cos, sin: p.sin, mask: p.step.attentionMask });

    it('gives append and cachedAttentionOutput\'s numbers bit for bit (rotary, grouped heads, a padded row), the step appended in place', async () => {
      await useBackend('wasm');
      const [a, b] = [primed(7), primed(7)];
      const got = a.cache.attendStep(0, request(a))!;
      const want = tidy(() => {
        const cut = (at: number, n: number) => slice(b.qkv, [0, 0, at], [2, 1, n]);
        const rotate = (t: Tensor, heads: number) => engine().runKernel(ROTARY_KERNEL, { x: t, cos: b.cos, sin: b.sin }, { heads }) as Tensor;
        const view = b.cache.append(0, rotate(cut(H * D, Hkv * D), Hkv), reshape(cut((H + Hkv) * D, Hkv * D), [2, Hkv, 1, D]));
        return reshape(cachedAttentionOutput(rotate(cut(0, H * D), H), view, { mask: b.step.attentionMask }), [2, 1, H * D]);
      });
      expect(got.shape).toEqual([2, 1, H * D]);
      expect(Array.from(await got.data())).toEqual(Array.from(await want.data()));
      expect(a.cache.length).toBe(6);
      const next = [a, b].map((p) => p.cache.step([[1], [1]]));
      const rows = tidy(() => [randomNormal([2, Hkv, 1, D], 0, 1, 'float32', 40), randomNormal([2, Hkv, 1, D], 0, 1, 'float32', 41)]);
      const [viewA, viewB] = [a.cache.append(0, rows[0]!, rows[1]!), b.cache.append(0, rows[0]!, rows[1]!)]; // both layers hold the same 7 positions
      const held = (t: Tensor) => slice(t, 0, [2, Hkv, 7, D]);
      for (const [x, y] of [[viewA.key, viewB.key], [viewA.value, viewB.value]] as const) {
        const [hx, hy] = [held(x), held(y)];
        expect(Array.from(await hx.data())).toEqual(Array.from(await hy.data()));
        [hx, hy].forEach((t) => t.dispose());
      }
      expect(heapOffset(viewA.key)).toBe(a.at); // the step's row (and the next) written where the layer's keys already lay
      [got, want, ...rows, ...next.flatMap((s) => [s.positionIds, s.attentionMask])].forEach((t) => t.dispose());
      for (const p of [a, b]) [p.cache, p.step.attentionMask, p.cos, p.sin, p.qkv].forEach((t) => t.dispose());
      await useBackend('cpu');
    });

    it('returns undefined and appends nothing where the kernel does not apply: cpu, a step of two positions, an empty layer', async () => {
      const p = primed(9); // on cpu
      expect(p.cache.attendStep(0, request(p))).toBeUndefined();
      const view = p.cache.append(0, zeros([2, Hkv, 1, D]), zeros([2, Hkv, 1, D])); // the layer still takes the step
      expect(view.length).toBe(6);
      [p.cache, p.step.attentionMask, p.cos, p.sin, p.qkv].forEach((t) => t.dispose());
      await useBackend('wasm');
      const q = primed(9);
      q.cache.append(0, zeros([2, Hkv, 1, D]), zeros([2, Hkv, 1, D])); // the primed step, finished
      const two = q.cache.step([[1, 1], [1, 1]]);
      expect(q.cache.attendStep(0, { ...request(q), mask: two.attentionMask })).toBeUndefined(); // T = 2
      expect(q.cache.append(0, zeros([2, Hkv, 2, D]), zeros([2, Hkv, 2, D])).length).toBe(8); // nothing was appended: the layer takes the step's 2 rows
      const empty = new KvCache({ numLayers: 1, maxLength: 4 });
      const first = empty.step([[1], [1]]);
      expect(empty.attendStep(0, { ...request(q), cos: undefined, sin: undefined, mask: first.attentionMask })).toBeUndefined(); // nothing held yet
      [q.cache, q.step.attentionMask, q.cos, q.sin, q.qkv, two.positionIds, two.attentionMask, empty, first.positionIds, first.attentionMask].forEach((t) => t.dispose());
      await useBackend('cpu');
    });

    it('returns undefined for more than 4 query heads per key/value head, where the threaded attention module takes over', async () => {
      await useBackend('wasm');
      const p = primed(13);
      const wide = zeros([2, 1, (10 + 2 * Hkv) * D]);
      expect(p.cache.attendStep(0, { query: wide, key: wide, value: wide, heads: 10, queryAt: 0, keyAt: 10 * D, valueAt: (10 + Hkv) * D, mask: p.step.attentionMask })).toBeUndefined(); // G = 5
      expect(p.cache.attendStep(0, request(p))).toBeDefined(); // nothing was appended: the layer still takes the step
      [wide, p.cache, p.step.attentionMask, p.cos, p.sin, p.qkv].forEach((t) => t.dispose());
      await useBackend('cpu');
    });

    it('refuses a bad layer, a call out of step, a non-tensor, another batch, heads of another layer and q/k norms that do not fit with typed errors naming them, leaking nothing', async () => {
      await useBackend('wasm');
      const p = primed(11);
      expect(await leaksOf(() => {
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), kvHeads: 3 })).message).toMatch(/^KvCache\.attendStep: 'step' must be this layer's Hkv = 2 key\/value heads of D = 8/);
        expect(thrown(() => p.cache.attendStep(1, request(p))).message).toMatch(/^KvCache\.attendStep: 'layer'/);
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), query: [1, 2] as never })).message).toMatch(/^KvCache\.attendStep: 'step\.query'/);
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), extra: 1 } as never))).toBeInstanceOf(InvalidArgumentError);
        const other = zeros([3, 1, width]);
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), query: other })).message).toMatch(/B = 2/);
        other.dispose();
        const [norm, short, integers] = [ones([D]), ones([D - 2]), zeros([D], 'int32')];
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), queryNorm: norm, normEpsilon: 1e-6 })).message).toMatch(/^KvCache\.attendStep: 'step\.keyNorm' must be queryNorm and keyNorm together, or neither; received queryNorm given, keyNorm absent/);
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), queryNorm: norm, keyNorm: norm })).message).toMatch(/^KvCache\.attendStep: 'step\.normEpsilon' must be a finite number > 0/);
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), normEpsilon: 1e-6 })).message).toMatch(/'step\.normEpsilon' must be absent without queryNorm and keyNorm/);
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), queryNorm: short, keyNorm: short, normEpsilon: 1e-6 })).message).toMatch(/'step\.queryNorm' must be a float32 \[D\] with this layer's D = 8; received \[6\]/);
        expect(thrown(() => p.cache.attendStep(0, { ...request(p), queryNorm: integers, keyNorm: norm, normEpsilon: 1e-6 }))).toBeInstanceOf(InvalidArgumentError);
        [norm, short, integers].forEach((t) => t.dispose());
      })).toEqual({ tensors: 0, bytes: 0 });
      p.cache.attendStep(0, request(p))!.dispose();
      expect(thrown(() => p.cache.attendStep(0, request(p))).message).toMatch(/already updated/); // the same layer twice in one step
      [p.cache, p.step.attentionMask, p.cos, p.sin, p.qkv].forEach((t) => t.dispose());
      await useBackend('cpu');
    });
  });

  it('on wasm, append writes each step in place, grows by doubling, and never changes what update() handed out', async () => {
    await useBackend('wasm');
    const cache = new KvCache({ numLayers: 1, maxLength: 40 });
    const rows = (t: number, from: number) => tidy(() => randomNormal([2, 3, t, 4], 0, 1, 'float32', from));
    const appended: Tensor[] = [];
    const memories: number[] = [];
    let handedOut: { key: Tensor; value: Tensor } | undefined;
    let seen: Float32Array | undefined;
    for (let i = 0; i < 20; i++) {
      const t = i === 0 ? 4 : 1;
      const step = cache.step(new Array(2).fill(new Array(t).fill(1)));
      [step.positionIds, step.attentionMask].forEach((x) => x.dispose());
      const [k, v] = [rows(t, 2 * i), rows(t, 2 * i + 1)];
      appended.push(k);
      if (i === 3) { // one update among the appends: its copy must stay as it was
        handedOut = cache.update(0, k, v);
        seen = (await handedOut.key.data()) as Float32Array;
      } else {
        const view = cache.append(0, k, v);
        expect(view.length).toBe(cache.length);
        memories.push((findBackend('wasm') as unknown as { dataIdMap: { get(id: object): { memoryOffset: number } } }).dataIdMap.get(view.key.dataId).memoryOffset); // where the layer's keys lie in the heap
        const want = concat(appended, 2);
        const held = slice(view.key, 0, [2, 3, view.length, 4]);
        expect(Array.from(await held.data()), `step ${i}`).toEqual(Array.from(await want.data()));
        expect(view.key.shape[2], `step ${i}`).toBe(view.length <= 16 ? 16 : 34); // 4 positions: room for 16 (at least 16); 17: twice that, 34
        [want, held].forEach((x) => x.dispose());
      }
      v.dispose();
    }
    expect(new Set(memories.slice(1, 12)).size).toBe(1); // steps 1-12 (but the update's step) wrote into one memory
    expect(memories[12]).not.toBe(memories[11]); // position 17: grown
    expect(Array.from(await handedOut!.key.data())).toEqual(Array.from(seen!));
    [...appended, handedOut!.key, handedOut!.value].forEach((x) => x.dispose());
    cache.dispose();
    await useBackend('cpu');
  });

  it('refuses a step past maxLength before changing anything (never a silent truncation)', async () => {
    const cache = new KvCache({ numLayers: 1, maxLength: 5 });
    const step = cache.step([[1, 1, 1, 1], [0, 1, 1, 1]]);
    cache.update(0, zeros([2, 1, 4, 2]), zeros([2, 1, 4, 2])).key.dispose();
    const error = thrown(() => cache.step([[1, 1], [1, 1]]));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("KvCache.step: 'tokenMask' must be at most maxLength − length = 5 − 4 = 1 new positions; received 2 ([2, 2]). Create the KvCache with a larger maxLength; nothing is dropped to make room.");
    expect(cache.length).toBe(4);
    const next = cache.step([[1], [1]]); // one more still fits
    expect(await next.positionIds.array()).toEqual([[4], [3]]);
    [step.positionIds, step.attentionMask, next.positionIds, next.attentionMask].forEach((t) => t.dispose());
    cache.dispose();
  });

  it('refuses updates out of order, other shapes and batches, with typed errors, leaking nothing', async () => {
    const cache = new KvCache({ numLayers: 2, maxLength: 8 });
    const [k, v, wrongT] = [zeros([2, 1, 2, 4]), zeros([2, 1, 2, 4]), zeros([2, 1, 3, 4])];
    expect(thrown(() => cache.update(0, k, v)).message).toBe("KvCache.update: 'layer' must be a layer not yet updated in this step (call step() first; each layer once per step); received 0, before any step.");
    const leaks = await leaksOf(() => {
      const step = cache.step([[1, 1], [0, 1]]);
      step.positionIds.dispose();
      step.attentionMask.dispose();
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
    expect(thrown(() => cache.update(0, wrongT, v)).message).toBe("KvCache.update: 'key' must be [B, Hkv, T, D] = [2, 1, 2, 4] (the step's B and T; this layer's Hkv and D); received [2, 1, 3, 4].");
    expect(thrown(() => cache.update(2, k, v)).message).toBe("KvCache.update: 'layer' must be an integer from 0 to 1; received number 2.");
    const kept = cache.update(0, k, v);
    expect(kept.key.shape).toEqual([2, 1, 2, 4]);
    kept.key.dispose();
    kept.value.dispose();
    expect(thrown(() => cache.update(0, k, v)).message).toMatch(/^KvCache\.update: 'layer' must be a layer not yet updated in this step .*; received 0, already updated\.$/);
    expect(thrown(() => cache.step([[1], [1]])).message).toBe("KvCache.step: 'this' must be a cache whose 2 layers were all updated for the previous step (2 positions); received layer 1 holding 0. Call update(layer, key, value) once per layer after each step().");
    cache.update(1, k, v).key.dispose();
    expect(thrown(() => cache.step([[1]])).message).toBe("KvCache.step: 'tokenMask' must be [B, T] with B = 2, the batch of the earlier steps; received [1, 1].");
    expect(thrown(() => cache.step([[1], [2]])).message).toBe("KvCache.step: 'tokenMask[1][0]' must be 0 (padding) or 1 (token); received number 2.");
    expect(thrown(() => new KvCache({ numLayers: 0, maxLength: 8 })).message).toBe("KvCache: 'numLayers' must be an integer ≥ 1; received number 0.");
    expect(thrown(() => new KvCache({ numLayers: 1, maxLen: 8 } as never)).message).toMatch(/^KvCache: 'config' must be an object with only the keys numLayers, maxLength; received the unknown key 'maxLen'\. Did you mean 'maxLength'\?$/);
    [k, v, wrongT].forEach((t) => t.dispose());
    cache.dispose();
  });
});
