import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/scorers.json' with { type: 'json' };
import { dotProductScorer } from './dot-product-scorer.js';
import { scaledDotProductScorer } from './scaled-dot-product-scorer.js';

const { cases } = fixtures as FixtureFile;
beforeAll(() => useBackend('cpu'));

describe.each([
  ['dot', dotProductScorer],
  ['scaled dot', scaledDotProductScorer],
] as const)('%s product scorer', (prefix, scorer) => {
  const names = Object.keys(cases).filter((n) => n.startsWith(`${prefix} [`));
  it('has a self (T = S) and a cross (T ≠ S) PyTorch case', () => expect(names).toHaveLength(2));

  it.each(names)('equals PyTorch within 1e-5 on cpu and wasm, no leaks: %s', async (name) => {
    const { inputs, outputs } = cases[name]!;
    const [query, key] = ['query', 'key'].map((n) => fixtureTensor(specOf(inputs, n)));
    const report = await compareBackends(() => scorer.score(query!, key!), { backends: ['cpu', 'wasm'], tolerance: 1e-5, reference: { output: fixtureValues(specOf(outputs, 'scores')) } });
    expect(report.ok).toBe(true);
    expect(report.results[0]?.outputs[0]?.shape).toEqual(specOf(outputs, 'scores').shape);
    expect(await leaksOf(() => scorer.score(query!, key!).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [query, key].forEach((t) => t?.dispose());
  });

  it('rejects mismatched head dims, ranks and leading dims, naming the shapes', () => {
    const caller = scorer.name;
    const q = zeros([2, 3, 4, 5]);
    const cases: Array<[number[], number[], string]> = [
      [[2, 3, 4, 5], [2, 3, 6, 4], `${caller}: 'key' must be the head dim of 'query' (D = 5) in its last axis; received [2, 3, 6, 4].`],
      [[2, 3, 4, 5], [2, 2, 6, 5], `${caller}: 'key' must be the leading dims of 'query' [2, 3] (batch, heads) and its rank 4; received [2, 2, 6, 5].`],
      [[2, 3, 4, 5], [2, 6, 5], `${caller}: 'key' must be the leading dims of 'query' [2, 3] (batch, heads) and its rank 4; received [2, 6, 5].`],
      [[4, 5], [6, 5], `${caller}: 'query' must be a float32 tensor of rank 3 or 4 [B, T, Dq] or [B, H, T, Dq]; received float32 tensor of rank 2 [4, 5].`],
    ];
    for (const [qShape, kShape, message] of cases) {
      const query = zeros(qShape);
      const key = zeros(kShape);
      const error = thrown(() => scorer.score(query, key));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
      [query, key].forEach((t) => t.dispose());
    }
    const ints = zeros([2, 3, 4, 5], 'int32');
    expect(thrown(() => scorer.score(q, ints)).message).toBe(
      `${caller}: 'key' must be a float32 tensor of rank 3 or 4 [B, S, Dk] or [B, H, S, Dk]; received int32 tensor of rank 4 [2, 3, 4, 5].`,
    );
    [q, ints].forEach((t) => t.dispose());
  });
});
