// Training needs tfjs' gradient functions; '@tensorflow/tfjs' registers them (tfjs-core alone does not).
import '@tensorflow/tfjs';
import { abs, mul, randomNormal, square, sub, sum, tensor, variableGrads, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { AdditiveScorer } from './additive-scorer.js';
import { BilinearScorer } from './bilinear-scorer.js';
import { SelfAttentionScorer } from './self-attention-scorer.js';

function seededQueryKey(queryShape: number[], keyShape: number[], seed: number): { query: Tensor; key: Tensor } {
  return { query: randomNormal(queryShape, 0, 1, 'float32', seed), key: randomNormal(keyShape, 0, 1, 'float32', seed + 1) };
}

describe.each(['cpu', 'wasm'] as const)('scorers with weights are trainable on %s', (backend) => {
  beforeAll(() => useBackend(backend));
  it.each([
    ['AdditiveScorer', () => new AdditiveScorer({ queryDim: 6, keyDim: 6, hiddenDim: 5, bias: true, seed: 1 }), 4],
    ['BilinearScorer', () => new BilinearScorer({ queryDim: 6, keyDim: 6, seed: 2 }), 1],
    ['SelfAttentionScorer', () => new SelfAttentionScorer({ embedDim: 6, seed: 3 }), 2],
  ] as const)('%s: every weight gets a finite, non-zero gradient', (_, make, count) => {
    const scorer = make();
    const { query, key } = seededQueryKey([2, 3, 6], [2, 4, 6], 7);
    const { value, grads } = variableGrads(() => sum(square(scorer.score(query, key))) as never, scorer.parameters());
    expect(Object.keys(grads)).toHaveLength(count);
    for (const grad of Object.values(grads)) {
      const total = sum(abs(grad)).dataSync()[0] as number;
      expect(Number.isFinite(total) && total > 0).toBe(true);
    }
    [value, ...Object.values(grads), query, key].forEach((t) => t.dispose());
    scorer.dispose();
  });

  it('a gradient step lowers a scorer loss (gradients point the right way)', () => {
    const scorer = new BilinearScorer({ queryDim: 6, keyDim: 6, seed: 2 });
    const { query, key } = seededQueryKey([2, 3, 6], [2, 4, 6], 8);
    const target = tensor(Array.from({ length: 24 }, (_, i) => (i % 5) - 2), [2, 3, 4]);
    const loss = () => sum(square(sub(scorer.score(query, key), target))) as never;
    const { value: before, grads } = variableGrads(loss, scorer.parameters());
    for (const v of scorer.parameters()) v.assign(sub(v, mul(grads[v.name]!, 1e-3)));
    const after = loss() as Tensor;
    expect(after.dataSync()[0]).toBeLessThan(before.dataSync()[0] as number);
    [before, after, ...Object.values(grads), query, key, target].forEach((t) => t.dispose());
    scorer.dispose();
  });
});
