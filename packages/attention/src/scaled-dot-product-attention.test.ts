import { memory, ones, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend, withBackend } from '@attnkit/backends';
import { ResourceLimitError, InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, fixtureValues, leaksOf, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/sdpa.json' with { type: 'json' };
import { scaledDotProductAttention } from './scaled-dot-product-attention.js';

const { cases } = fixtures as FixtureFile;
beforeAll(() => useBackend('cpu'));

describe('scaledDotProductAttention', () => {
  it.each(Object.keys(cases))('equals PyTorch softmax(mask(q kᵀ / √D)) v within 1e-5 on cpu and wasm, no leaks: %s', async (name) => {
    const { inputs, outputs } = cases[name]!;
    const [q, k, v, mask] = ['query', 'key', 'value', 'mask'].map((n) => fixtureTensor(specOf(inputs, n)));
    const report = await compareBackends(() => ({ ...scaledDotProductAttention(q!, k!, v!, { mask }) }), {
      backends: ['cpu', 'wasm'],
      tolerance: 1e-5,
      reference: { output: fixtureValues(specOf(outputs, 'output')), attentionWeights: fixtureValues(specOf(outputs, 'attentionWeights')) },
    });
    expect(report.ok).toBe(true);
    expect(await leaksOf(() => { const r = scaledDotProductAttention(q!, k!, v!, { mask }); r.output.dispose(); r.attentionWeights.dispose(); })).toEqual({ tensors: 0, bytes: 0 });
    [q, k, v, mask].forEach((t) => t?.dispose());
  });

  it('applies dropout only when training, reproducibly per seed, keeping the expected scale', async () => {
    const [q, k, v] = [ones([1, 1, 64, 4]), ones([1, 1, 64, 4]), ones([1, 1, 64, 2])];
    const inference = scaledDotProductAttention(q, k, v, { dropout: 0.5 });
    expect(Array.from(await inference.attentionWeights.data()).every((w) => Math.abs(w - 1 / 64) < 1e-7)).toBe(true);
    const a = scaledDotProductAttention(q, k, v, { dropout: 0.5, training: true, seed: 7 });
    const b = scaledDotProductAttention(q, k, v, { dropout: 0.5, training: true, seed: 7 });
    const weights = Array.from(await a.attentionWeights.data());
    expect(weights).toEqual(Array.from(await b.attentionWeights.data()));
    const dropped = weights.filter((w) => w === 0).length / weights.length;
    expect(dropped).toBeGreaterThan(0.4);
    expect(dropped).toBeLessThan(0.6);
    expect(weights.filter((w) => w !== 0).every((w) => Math.abs(w - 2 / 64) < 1e-7)).toBe(true); // kept weights scaled by 1 / (1 - rate)
    [q, k, v, inference.output, inference.attentionWeights, a.output, a.attentionWeights, b.output, b.attentionWeights].forEach((t) => t.dispose());
  });

  it.each([
    [[2, 3, 4, 8], [2, 3, 6, 8], [2, 3, 5, 8], {}, "scaledDotProductAttention: 'value' must be [B, H, S, Dv] with B, H, S = 2, 3, 6 (from 'query' and 'key'); received [2, 3, 5, 8]."],
    [[2, 3, 4, 8], [2, 3, 6, 7], [2, 3, 6, 8], {}, "scaledDotProductScorer: 'key' must be the head dim of 'query' (D = 8) in its last axis; received [2, 3, 6, 7]."],
    [[2, 4, 8], [2, 6, 8], [2, 6, 8], {}, "scaledDotProductAttention: 'query' must be a float32 tensor of rank 4 [B, H, T, D]; received float32 tensor of rank 3 [2, 4, 8]."],
    [[2, 3, 4, 8], [2, 3, 6, 8], [2, 3, 6, 8], { dropout: 1 }, "scaledDotProductAttention: 'dropout' must be a rate in [0, 1); received 1."],
  ] as const)('rejects bad shapes and options %#', (qs, ks, vs, options, message) => {
    const [q, k, v] = [zeros([...qs]), zeros([...ks]), zeros([...vs])];
    const error = thrown(() => scaledDotProductAttention(q, k, v, options));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    [q, k, v].forEach((t) => t.dispose());
  });

  it('rejects a mask that does not fit [B, H, T, S], naming the dimension', () => {
    const [q, k, v] = [zeros([2, 3, 4, 8]), zeros([2, 3, 6, 8]), zeros([2, 3, 6, 8])];
    const mask = ones([2, 1, 1, 5], 'bool');
    expect(thrown(() => scaledDotProductAttention(q, k, v, { mask })).message).toBe(
      "scaledDotProductAttention: 'mask' must be broadcastable to [B, H, T, S] = [2, 3, 4, 6] (read as [B, H, T, S]; each dimension 1 or equal); received [2, 1, 1, 5], whose dimension 3 (S) is 5, expected 1 or 6.",
    );
    [q, k, v, mask].forEach((t) => t.dispose());
  });

  it('refuses sizes past the memory budget before allocating anything, on cpu and wasm', async () => {
    for (const backend of ['cpu', 'wasm']) {
      await withBackend(backend, () => {
        const [q, k, v] = [zeros([1, 2, 30_000, 1]), zeros([1, 2, 30_000, 1]), zeros([1, 2, 30_000, 1])]; // scores would be 2 × 30 000² floats: 6.7 GiB each
        const before = memory();
        expect(() => scaledDotProductAttention(q, k, v)).toThrow(ResourceLimitError);
        expect(() => scaledDotProductAttention(q, k, v)).toThrow(`scaledDotProductAttention: the attention scores [1, 2, 30000, 30000] float32 (3 at once) need 20.1 GiB, more than the 2.0 GiB ${backend} allows`);
        expect([memory().numTensors, memory().numBytes]).toEqual([before.numTensors, before.numBytes]);
        [q, k, v].forEach((t) => t.dispose());
      });
    }
  });
});

describe('scaledDotProductAttention options', () => {
  const make = () => [zeros([1, 2, 3, 4]), zeros([1, 2, 5, 4]), zeros([1, 2, 5, 4]), ones([1, 1, 1, 5], 'bool')] as const;
  it.each([
    [() => null, "scaledDotProductAttention: 'options' must be an options object; received null."],
    [(m: unknown) => ({ attentionMask: m }), "scaledDotProductAttention: 'options' must be an object with only the keys mask, bias, scorer, dropout, training, seed; received the unknown key 'attentionMask'. Did you mean 'mask'?"],
    [() => ({ training: 'yes', dropout: 0.5 }), "scaledDotProductAttention: 'training' must be true or false; received string 'yes'."],
    [() => ({ dropout: Symbol('d') }), "scaledDotProductAttention: 'dropout' must be a rate in [0, 1); received symbol d."],
    [() => ({ scorer: {} }), "scaledDotProductAttention: 'scorer' must be a Scorer (an object with a score(query, key) method returning [B, H, T, S]); received Object."],
    [() => ({ scorer: { score: () => ones([3]) } }), "scaledDotProductAttention: 'scorer' must be a Scorer whose score(query, key) returns float32 scores [B, H, T, S] = [1, 2, 3, 5]; received a score() that returned float32 tensor of rank 1 [3]."],
    [() => ({ scorer: { score: () => 7 } }), "scaledDotProductAttention: 'scorer' must be a Scorer whose score(query, key) returns float32 scores [B, H, T, S] = [1, 2, 3, 5]; received a score() that returned number 7."],
  ] as const)('refuses bad options with a typed error, leaking nothing (%#)', async (options, message) => {
    const [q, k, v, m] = make();
    const leaks = await leaksOf(() => {
      const error = thrown(() => scaledDotProductAttention(q, k, v, options(m) as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
    [q, k, v, m].forEach((t) => t.dispose());
  });
});
