import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { zeros } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@attnkit/errors';
import { StateDictError } from '@attnkit/nn';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/scorers.json' with { type: 'json' };
import { SelfAttentionScorer } from './self-attention-scorer.js';

const fixture = (fixtures as FixtureFile).cases['self-attention X[3,4,6]']!;
beforeAll(() => useBackend('cpu'));

describe('SelfAttentionScorer', () => {
  it("equals seed 003's (X W_q)(X W_k)ᵀ from PyTorch within 1e-5 on cpu and wasm, no leaks", async () => {
    const weights = Object.fromEntries(Object.entries(fixture.weights!).map(([k, v]) => [k, fixtureTensor(v)]));
    const scorer = new SelfAttentionScorer({ embedDim: 6 }, weights);
    Object.values(weights).forEach((t) => t.dispose());
    const x = fixtureTensor(specOf(fixture.inputs, 'x'));
    const report = await compareBackends(() => scorer.score(x, x), { backends: ['cpu', 'wasm'], tolerance: 1e-5, reference: { output: fixtureValues(specOf(fixture.outputs, 'scores')) } });
    expect(report.ok).toBe(true);
    expect(report.results[0]?.outputs[0]?.shape).toEqual([3, 4, 4]);
    expect(await leaksOf(() => scorer.score(x, x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
    scorer.dispose();
  });

  it('rejects a non-positive projection width', () => {
    const error = thrown(() => new SelfAttentionScorer({ embedDim: 6, projectionDim: 0 }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("SelfAttentionScorer: 'projectionDim' must be an integer ≥ 1; received number 0.");
  });

  it('refuses a checkpoint with a bias its projections do not have and a missing W_k, in one StateDictError', () => {
    const [weight, bias] = [zeros([4, 6]), zeros([4])];
    const error = thrown(() => new SelfAttentionScorer({ embedDim: 6, projectionDim: 4 }, { 'W_q.weight': weight, 'W_q.bias': bias }));
    expect(error).toBeInstanceOf(StateDictError);
    expect(error.message).toBe(
      'SelfAttentionScorer: the state dict does not fit the module. 1 missing: W_k.weight. 1 unexpected: W_q.bias. For its config, this SelfAttentionScorer has W_q.weight [4, 6], W_k.weight [4, 6].',
    );
    [weight, bias].forEach((t) => t.dispose());
  });
});
