import { concat, memory, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KvCache } from '@attnkit/attention';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { loadCausalLM } from '../load/load-causal-lm.js';
import type { CausalLM } from './decoder-for-causal-lm.js';

// The cached forward (prompt, then a token or a chunk at a time over a KvCache) equals the uncached
// forward over the whole left-padded sequence, for every kind of attention: GPT-2 (learned positions),
// Llama (grouped-query), Mistral (a sliding window of 8, passed by these 14 positions), Qwen3 (q/k norm).
// Dynamic rope is left out on purpose: its frequencies follow the longest sequence of each call, in
// transformers as here, so a step over the cache and the whole sequence at once rotate differently.
const FOLDERS = ['gpt2', 'llama', 'mistral', 'qwen3'];
const folder = (name: string) => new URL(`../../../../tooling/reference/fixtures/decoders/${name}/`, import.meta.url).pathname;
const IDS = [[0, 0, 0, 5, 17, 42, 9, 100, 3, 77, 12, 250, 31, 8], [64, 2, 19, 5, 17, 42, 9, 100, 3, 77, 12, 250, 31, 8]]; // [2, 14], row 0 left-padded
const MASK = [[0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]];
const columns = (rows: number[][], from: number, to: number) => rows.map((row) => row.slice(from, to));

/** The logits of the real positions `[N, V]` from `[B, T, V]` (padded query rows differ on purpose: zero attention). */
function realPositions(logits: Tensor): number[][] {
  const values = logits.arraySync() as number[][][];
  return values.flatMap((row, b) => row.filter((_, t) => MASK[b]![t] === 1));
}

function maxDifference(a: number[][], b: number[][]): number {
  let worst = 0;
  a.forEach((row, i) => row.forEach((v, j) => { worst = Math.max(worst, Math.abs(v - b[i]![j]!)); }));
  return worst;
}

describe.each(['cpu', 'wasm'])('a decoder over its KV cache, on %s', (backend) => {
  const models = new Map<string, CausalLM>();
  beforeAll(async () => {
    await useBackend(backend);
    for (const name of FOLDERS) models.set(name, await loadCausalLM(folder(name)));
  });
  afterAll(() => models.forEach((m) => m.dispose()));

  it.each(FOLDERS)('%s: the prompt then one token at a time, and chunks of 3, equal the whole sequence (≤ 1e-5), no tensor left but the cache\'s', (name) => {
    const model = models.get(name)!;
    const whole = tidy(() => realPositions(model.forward({ inputIds: IDS, attentionMask: MASK }).logits));
    for (const [first, chunk] of [[5, 1], [2, 3]] as const) {
      const cache = model.createCache({ maxLength: 14 });
      const before = memory().numTensors;
      const parts: Tensor[] = [];
      for (let start = 0; start < 14; start = Math.min(14, start === 0 ? first : start + chunk)) {
        const end = start === 0 ? first : Math.min(14, start + chunk);
        const { logits, pastKeyValues } = model.forward({ inputIds: columns(IDS, start, end), attentionMask: columns(MASK, start, end), pastKeyValues: cache });
        expect(pastKeyValues).toBe(cache);
        parts.push(logits);
        if (start === 0 && end === 14) break;
      }
      expect(memory().numTensors - before, 'the logits and the cache\'s two tensors per layer').toBe(parts.length + 2 * model.config.numHiddenLayers);
      const stepped = tidy(() => realPositions(concat(parts, 1)));
      parts.forEach((t) => t.dispose());
      expect(cache.length).toBe(14);
      expect(maxDifference(stepped, whole)).toBeLessThanOrEqual(1e-5);
      cache.dispose();
      expect(memory().numTensors).toBe(before);
    }
  });

  it('keeps the tensors it holds constant step after step: no tensor leaked per token', () => {
    const model = models.get('llama')!;
    const cache = model.createCache();
    model.forward({ inputIds: IDS, attentionMask: MASK, pastKeyValues: cache }).logits.dispose();
    const held = memory().numTensors;
    for (let step = 0; step < 20; step++) model.forward({ inputIds: [[7], [9]], pastKeyValues: cache, logitsToKeep: 1 }).logits.dispose();
    expect(memory().numTensors).toBe(held);
    cache.dispose();
  });

  it('takes the attention mask of every position so far, as transformers does with a cache, and continues a cache across calls', () => {
    const model = models.get('qwen3')!;
    const cache = model.createCache();
    model.forward({ inputIds: columns(IDS, 0, 10), attentionMask: columns(MASK, 0, 10), pastKeyValues: cache }).logits.dispose();
    const later = model.forward({ inputIds: columns(IDS, 10, 14), attentionMask: MASK, pastKeyValues: cache }); // [B, S] = [2, 14]
    const whole = model.forward({ inputIds: IDS, attentionMask: MASK });
    const tail = slice(whole.logits, [0, 10, 0], [-1, 4, -1]);
    expect(maxDifference((tail.arraySync() as number[][][]).flat(), (later.logits.arraySync() as number[][][]).flat())).toBeLessThanOrEqual(1e-5);
    for (const t of [later.logits, whole.logits, tail]) t.dispose();
    cache.dispose();
  });

  it('starts a cache with useCache (bounded by max_position_embeddings) and returns none without', () => {
    const model = models.get('gpt2')!;
    const started = model.forward({ inputIds: [[1, 2, 3]], useCache: true });
    expect(started.pastKeyValues).toBeInstanceOf(KvCache);
    expect([started.pastKeyValues!.length, started.pastKeyValues!.maxLength]).toEqual([3, 64]);
    const plain = model.forward({ inputIds: [[1, 2, 3]] });
    expect(plain.pastKeyValues).toBeUndefined();
    for (const t of [started.logits, plain.logits]) t.dispose();
    started.pastKeyValues!.dispose();
  });

  it('refuses, leaving the cache as it was: a step past maxLength, a position past GPT-2\'s table, a cache of another model, a disposed cache', () => {
    const llama = models.get('llama')!;
    const gpt2 = models.get('gpt2')!;
    const cache = llama.createCache({ maxLength: 4 });
    const before = memory().numTensors;
    const past = thrown(() => llama.forward({ inputIds: [[1, 2, 3, 4, 5]], pastKeyValues: cache }));
    expect(past).toBeInstanceOf(InvalidArgumentError);
    expect(past.message).toBe("KvCache.step: 'tokenMask' must be at most maxLength − length = 4 − 0 = 4 new positions; received 5 ([1, 5]). Create the KvCache with a larger maxLength; nothing is dropped to make room.");
    const table = thrown(() => gpt2.forward({ inputIds: [new Array<number>(65).fill(1)] }));
    expect(table.message).toBe("GPT2LMHeadModel.forward: 'inputIds' must be positions below n_positions = 64 (the learned position table); received position 64. Shorten the prompt, or generate fewer tokens: GPT-2 has no position past its table.");
    expect(thrown(() => gpt2.createCache({ maxLength: 65 })).message).toBe("GPT2LMHeadModel.createCache: 'maxLength' must be an integer from 1 to 64; received number 65.");
    const other = new KvCache({ numLayers: 3, maxLength: 8 });
    expect(thrown(() => llama.forward({ inputIds: [[1]], pastKeyValues: other })).message).toBe("LlamaForCausalLM.forward: 'pastKeyValues' must be a KvCache of num_hidden_layers = 2 layers (model.createCache()); received a KvCache of 3 layers.");
    expect(thrown(() => llama.forward({ inputIds: [[1]], attentionMask: [[1, 1]] })).message).toBe("LlamaForCausalLM.forward: 'attentionMask' must be [B, T] = [1, 1] (the new tokens); received [1, 2].");
    expect(thrown(() => llama.forward({ inputIds: [[320]] })).message).toBe("LlamaForCausalLM.forward: 'inputIds[0][0]' must be an id in [0, 320); received 320.");
    expect([cache.length, memory().numTensors]).toEqual([0, before]);
    other.dispose();
    cache.dispose();
    expect(thrown(() => llama.forward({ inputIds: [[1]], pastKeyValues: cache }))).toBeInstanceOf(UseAfterDisposeError);
    expect(memory().numTensors).toBe(before);
  });
});
