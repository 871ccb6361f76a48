import { describe, expect, it } from 'vitest';
import { lengthBucketedBatches } from './length-bucketed-batches.js';
import { InvalidArgumentError } from '@attnkit/errors';

const lengths = Array.from({ length: 1000 }, (_, i) => 3 + ((i * 7919) % 61)); // token lengths 3..63

describe('lengthBucketedBatches', () => {
  it('covers every example once, in full batches but the last, the same for a seed and epoch and different otherwise', () => {
    const batches = lengthBucketedBatches(1000, { batchSize: 16, seed: 42, epoch: 0, lengths });
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(batches.filter((b) => b.length !== 16)).toHaveLength(1); // 1000 = 62 · 16 + 8
    expect(lengthBucketedBatches(1000, { batchSize: 16, seed: 42, epoch: 0, lengths })).toEqual(batches);
    expect(lengthBucketedBatches(1000, { batchSize: 16, seed: 42, epoch: 1, lengths })).not.toEqual(batches);
    expect(lengthBucketedBatches(1000, { batchSize: 16, seed: 43, epoch: 0, lengths })).not.toEqual(batches);
  });

  it('groups similar lengths (less padding than a plain shuffle) and shuffles the batch order', () => {
    const batches = lengthBucketedBatches(1000, { batchSize: 16, seed: 42, epoch: 0, lengths });
    const padding = (list: number[][]) => list.reduce((sum, b) => sum + b.reduce((s, i) => s + Math.max(...b.map((j) => lengths[j]!)) - lengths[i]!, 0), 0);
    const plain = Array.from({ length: 63 }, (_, k) => Array.from({ length: 1000 }, (_, i) => i).slice(16 * k, 16 * k + 16));
    expect(padding(batches)).toBeLessThan(0.2 * padding(plain));
    const longest = batches.map((b) => Math.max(...b.map((i) => lengths[i]!)));
    expect(longest).not.toEqual([...longest].sort((a, b) => a - b)); // not short-to-long through the epoch
  });

  it('with texts, never puts one text twice in a batch (NoDuplicatesBatchSampler), postponing the repeats', () => {
    const texts = Array.from({ length: 200 }, (_, i) => [`anchor ${i % 50}`, `positive ${i}`]); // each anchor four times
    const batches = lengthBucketedBatches(200, { batchSize: 8, seed: 1, epoch: 0, lengths: lengths.slice(0, 200), texts, windowBatches: 2 });
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    for (const batch of batches) {
      const all = batch.flatMap((i) => texts[i]!);
      expect(new Set(all).size).toBe(all.length);
    }
    expect(batches.length).toBeLessThanOrEqual(25 + 2); // only the last window's unavoidable repeats make short batches
  });
});

describe('lengthBucketedBatches input checks', () => {
  const valid = { batchSize: 2, seed: 1, epoch: 0, lengths: [3, 1, 2, 4] };
  it.each([
    [{ ...valid, batchSize: -1 }, /'batchSize' must be an integer ≥ 1; received number -1/], // an endless loop before the check
    [{ ...valid, batchSize: Number.NaN }, /'batchSize'/],
    [{ ...valid, windowBatches: 0 }, /'windowBatches' must be an integer ≥ 1/],
    [{ ...valid, epoch: -1 }, /'epoch' must be an integer ≥ 0/],
    [{ ...valid, seed: 'x' }, /'seed' must be an integer/],
    [{ ...valid, lengths: [3, 1, 2] }, /'lengths' must be the token length of each of the 4 examples/],
    [{ ...valid, lengths: [3, , 2, 4] }, /'lengths'/], // eslint-disable-line no-sparse-arrays
    [{ ...valid, texts: [['a']] }, /'texts' must be the texts of each of the 4 examples/],
    [{ ...valid, batch: 2 }, /unknown key 'batch'/],
  ])('refuses %j with a typed error', (options, message) => {
    expect(() => lengthBucketedBatches(4, options as never)).toThrow(InvalidArgumentError);
    expect(() => lengthBucketedBatches(4, options as never)).toThrow(message);
  });
});
