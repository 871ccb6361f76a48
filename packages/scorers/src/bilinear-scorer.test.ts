import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { StateDictError } from '@attnkit/nn';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/scorers.json' with { type: 'json' };
import { BilinearScorer } from './bilinear-scorer.js';

const fixture = (fixtures as FixtureFile).cases['bilinear q[2,4,8] W[8,5] k[2,6,5]']!;
beforeAll(() => useBackend('cpu'));

describe('BilinearScorer', () => {
  it('equals PyTorch q @ W @ kᵀ within 1e-5 on cpu and wasm, no leaks', async () => {
    const weight = fixtureTensor(specOf(fixture.weights, 'weight'));
    const scorer = new BilinearScorer({ queryDim: 8, keyDim: 5 }, { weight });
    weight.dispose();
    const [query, key] = ['query', 'key'].map((n) => fixtureTensor(specOf(fixture.inputs, n)));
    const report = await compareBackends(() => scorer.score(query!, key!), { backends: ['cpu', 'wasm'], tolerance: 1e-5, reference: { output: fixtureValues(specOf(fixture.outputs, 'scores')) } });
    expect(report.ok).toBe(true);
    expect(await leaksOf(() => scorer.score(query!, key!).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [query, key].forEach((t) => t?.dispose());
    scorer.dispose();
  });

  it('works per head ([B, H, T, D]) and rejects wrong widths and weight shapes', () => {
    const scorer = new BilinearScorer({ queryDim: 4, keyDim: 3, seed: 1 });
    const [q, k] = [zeros([2, 2, 5, 4]), zeros([2, 2, 6, 3])];
    const scores = scorer.score(q, k);
    expect(scores.shape).toEqual([2, 2, 5, 6]);
    const wide = zeros([2, 2, 5, 3]);
    const error = thrown(() => scorer.score(wide, k));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("BilinearScorer.score: 'query' must be last dim 4 (the scorer's queryDim); received [2, 2, 5, 3].");
    const weight = zeros([3, 4]);
    const refused = thrown(() => new BilinearScorer({ queryDim: 4, keyDim: 3 }, { weight, bias: weight }));
    expect(refused).toBeInstanceOf(StateDictError);
    expect(refused.message).toBe(
      'BilinearScorer: the state dict does not fit the module. 1 unexpected: bias. 1 mis-shaped: weight (expected [4, 3] float32, received [3, 4] float32). For its config, this BilinearScorer has weight [4, 3].',
    );
    [q, k, scores, wide, weight].forEach((t) => t.dispose());
    scorer.dispose();
  });
});
