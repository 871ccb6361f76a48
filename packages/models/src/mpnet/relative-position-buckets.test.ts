import { describe, expect, it } from 'vitest';
import buckets from '@attnkit/reference/fixtures/mpnet-buckets.json' with { type: 'json' };
import { relativePositionBuckets } from './relative-position-buckets.js';

const fixture = buckets as unknown as Record<string, { relative: number[]; bucket: number[] }>;

describe('relativePositionBuckets equals transformers MPNetEncoder.relative_position_bucket', () => {
  it.each(Object.keys(fixture))('every distance of a 600-token sequence, %s buckets', (count) => {
    const { relative, bucket } = fixture[count]!;
    const length = 600;
    const table = relativePositionBuckets(length, Number(count));
    // entry [i, j] is the bucket of j - i; row 599 holds distances -599..0, row 0 holds 0..599
    const ours = relative.map((d) => (d <= 0 ? table[(length - 1) * length + (length - 1 + d)] : table[d]));
    const wrong = relative.filter((_, k) => ours[k] !== bucket[k]);
    expect(wrong).toEqual([]);
  });

  it('is the [T, T] table of j - i', () => {
    expect([...relativePositionBuckets(3, 32)]).toEqual([0, 17, 18, 1, 0, 17, 2, 1, 0]);
  });
});
