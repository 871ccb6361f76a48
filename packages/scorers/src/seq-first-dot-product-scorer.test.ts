import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/scorers.json' with { type: 'json' };
import { seqFirstDotProductScorer } from './seq-first-dot-product-scorer.js';

const fixture = (fixtures as FixtureFile).cases['seq-first q[4,2,3,5] k[6,2,3,5]']!;
beforeAll(() => useBackend('cpu'));

describe('seqFirstDotProductScorer', () => {
  it("equals PyTorch einsum('ibhd,jbhd->ijbh') within 1e-5 on cpu and on wasm (which has no Einsum kernel)", async () => {
    const [query, key] = ['query', 'key'].map((n) => fixtureTensor(specOf(fixture.inputs, n)));
    const report = await compareBackends(() => seqFirstDotProductScorer.score(query!, key!), { backends: ['cpu', 'wasm'], tolerance: 1e-5, reference: { output: fixtureValues(specOf(fixture.outputs, 'scores')) } });
    expect(report.ok).toBe(true);
    expect(report.results[1]?.outputs[0]?.shape).toEqual([4, 6, 2, 3]);
    expect(await leaksOf(() => seqFirstDotProductScorer.score(query!, key!).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [query, key].forEach((t) => t?.dispose());
  });

  it('rejects a key whose batch, heads or head dim differ, and batch-first ranks', () => {
    const query = zeros([4, 2, 3, 5]);
    const key = zeros([6, 2, 4, 5]);
    const error = thrown(() => seqFirstDotProductScorer.score(query, key));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("seqFirstDotProductScorer: 'key' must be [S, B, H, D] = [S, 2, 3, 5] like 'query'; received [6, 2, 4, 5].");
    const batchFirst = zeros([2, 4, 5]);
    expect(thrown(() => seqFirstDotProductScorer.score(batchFirst, key)).message).toBe(
      "seqFirstDotProductScorer: 'query' must be a float32 tensor of rank 4 [T, B, H, D]; received float32 tensor of rank 3 [2, 4, 5].",
    );
    [query, key, batchFirst].forEach((t) => t.dispose());
  });
});
