import fc from 'fast-check';
import { matMul, reshape, slice, tensor, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { maskedSoftmax, paddingMask } from '@attnkit/masks';
import { attentionPooling } from './attention-pooling.js';
import { dotProductScorer } from './dot-product-scorer.js';
import { scaledDotProductScorer } from './scaled-dot-product-scorer.js';

/** Seed 003's self-attention: softmax(mask(X Xᵀ / √D)) X, on `[B, L, D]`. */
function selfAttention(x: Tensor, mask: Tensor | undefined): Tensor {
  return tidy(() => matMul(maskedSoftmax(scaledDotProductScorer.score(x, x), mask), x));
}

const batchArbitrary = fc
  .record({ maxLength: fc.integer({ min: 1, max: 7 }), dim: fc.integer({ min: 1, max: 6 }), batch: fc.integer({ min: 1, max: 4 }), seed: fc.integer() })
  .chain(({ maxLength, dim, batch, seed }) =>
    fc.record({
      maxLength: fc.constant(maxLength),
      dim: fc.constant(dim),
      seed: fc.constant(seed),
      lengths: fc.array(fc.integer({ min: 1, max: maxLength }), { minLength: batch, maxLength: batch }),
      values: fc.array(fc.float({ min: -3, max: 3, noNaN: true }), { minLength: batch * maxLength * dim, maxLength: batch * maxLength * dim }),
    }),
  );

// Seed 003's proof, as a property: whatever sits in the padding, a padded, masked batch gives
// exactly the per-sequence unpadded results on the valid positions.
describe.each(['cpu', 'wasm'] as const)('padding invariance on %s (fast-check)', (backend) => {
  it('self-attention: padded batch == each sequence alone, ≤ 1e-5', async () => {
    await useBackend(backend);
    fc.assert(
      fc.property(batchArbitrary, ({ maxLength, dim, lengths, values }) => {
        const x = tensor(values, [lengths.length, maxLength, dim]);
        const mask = paddingMask(lengths, maxLength);
        const padded = tidy(() => selfAttention(x, reshape(mask, [lengths.length, 1, maxLength]))); // [B, L, D]
        const ok = lengths.every((length, b) => {
          const alone = tidy(() => selfAttention(slice(x, [b, 0, 0], [1, length, dim]), undefined)); // [1, len, D]
          const valid = tidy(() => slice(padded, [b, 0, 0], [1, length, dim]));
          const { maxAbsDiff } = maxDifference(valid.dataSync(), alone.dataSync());
          [alone, valid].forEach((t) => t.dispose());
          return maxAbsDiff <= 1e-5;
        });
        [x, mask, padded].forEach((t) => t.dispose());
        return ok;
      }),
      { numRuns: 60, seed: 20261122 },
    );
  });

  it('attention pooling: padded batch == each sequence alone, ≤ 1e-5', async () => {
    await useBackend(backend);
    fc.assert(
      fc.property(batchArbitrary, ({ maxLength, dim, lengths, values }) => {
        const x = tensor(values, [lengths.length, maxLength, dim]);
        const query = tensor(values.slice(0, dim), [dim]);
        const mask = paddingMask(lengths, maxLength);
        const padded = attentionPooling(dotProductScorer, x, mask, query);
        const pooled = padded.output.dataSync();
        const ok = lengths.every((length, b) => {
          const alone = tidy(() => attentionPooling(dotProductScorer, slice(x, [b, 0, 0], [1, length, dim]), undefined, query).output);
          const { maxAbsDiff } = maxDifference(pooled.slice(b * dim, (b + 1) * dim), alone.dataSync());
          alone.dispose();
          return maxAbsDiff <= 1e-5;
        });
        [x, query, mask, padded.output, padded.attentionWeights].forEach((t) => t.dispose());
        return ok;
      }),
      { numRuns: 60, seed: 20261122 },
    );
  });
});
