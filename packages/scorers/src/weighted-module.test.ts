import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { UseAfterDisposeError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { AdditiveScorer } from './additive-scorer.js';
import { BilinearScorer } from './bilinear-scorer.js';
import { SelfAttentionScorer } from './self-attention-scorer.js';

beforeAll(() => useBackend('cpu'));

describe('WeightedModule (via the scorers)', () => {
  it.each([
    ['AdditiveScorer', () => new AdditiveScorer({ queryDim: 3, keyDim: 4, hiddenDim: 5, bias: true, seed: 1 })],
    ['BilinearScorer', () => new BilinearScorer({ queryDim: 3, keyDim: 4, seed: 1 })],
    ['SelfAttentionScorer', () => new SelfAttentionScorer({ embedDim: 4, seed: 1 })],
  ] as const)('%s: construct + dispose leaves no tensor behind', async (_, make) => {
    expect(await leaksOf(() => make().dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it('names its weights like the checkpoint, frees all of them once, then refuses use', async () => {
    expect(await leaksOf(() => new SelfAttentionScorer({ embedDim: 4, seed: 1 }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    const scorer = new SelfAttentionScorer({ embedDim: 4, projectionDim: 3, seed: 1 });
    expect([...scorer.namedWeights.keys()]).toEqual(['W_q.weight', 'W_k.weight']);
    expect(scorer.variables.map((v) => v.shape)).toEqual([[3, 4], [3, 4]]);
    scorer.dispose();
    for (const use of [() => scorer.variables, () => scorer.namedWeights, () => scorer.dispose()]) expect(thrown(use)).toBeInstanceOf(UseAfterDisposeError);
    expect(thrown(() => scorer.variables).message).toBe('SelfAttentionScorer.variables: called after dispose() freed its weights. Create a new instance instead.');
  });
});
