// Training needs tfjs' gradient functions; '@tensorflow/tfjs' registers them (tfjs-core alone does not).
import '@tensorflow/tfjs';
import { abs, square, sum, variableGrads, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/scorers.json' with { type: 'json' };
import { AdditiveScorer } from './additive-scorer.js';

const { cases } = fixtures as FixtureFile;
const names = Object.keys(cases).filter((n) => n.startsWith('additive'));
beforeAll(() => useBackend('cpu'));

function fromFixture(name: string): AdditiveScorer {
  const weights = Object.fromEntries(Object.entries(cases[name]!.weights!).map(([k, v]) => [k, fixtureTensor(v)]));
  const scorer = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, bias: 'W_k.bias' in weights, weights });
  Object.values(weights).forEach((t) => t.dispose());
  return scorer;
}

describe('AdditiveScorer', () => {
  it.each(names)('equals PyTorch wᵀ tanh(W_q q + W_k k [+ b]) within 1e-5 on cpu and wasm: %s', async (name) => {
    const { inputs, outputs } = cases[name]!;
    const scorer = fromFixture(name);
    const [query, key] = ['query', 'key'].map((n) => fixtureTensor(specOf(inputs, n)));
    const report = await compareBackends(() => scorer.score(query!, key!), { backends: ['cpu', 'wasm'], tolerance: 1e-5, reference: { output: fixtureValues(specOf(outputs, 'scores')) } });
    expect(report.ok).toBe(true);
    expect(report.results[0]?.outputs[0]?.shape).toEqual([2, 4, 6]);
    expect(await leaksOf(() => scorer.score(query!, key!).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [query, key].forEach((t) => t?.dispose());
    scorer.dispose();
  });

  it('is trainable: every weight gets a non-zero gradient', () => {
    const scorer = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, bias: true, seed: 1 });
    const query = fixtureTensor(specOf(cases[names[0]!]!.inputs, 'query'));
    const key = fixtureTensor(specOf(cases[names[0]!]!.inputs, 'key'));
    const { value, grads } = variableGrads(() => sum(square(scorer.score(query, key))) as never, [...scorer.variables]);
    expect(Object.keys(grads)).toHaveLength(4);
    for (const grad of Object.values(grads)) expect(sum(abs(grad)).dataSync()[0]).toBeGreaterThan(0);
    [value, ...Object.values(grads), query, key].forEach((t) => t.dispose());
    scorer.dispose();
  });

  it('frees its weights once; later use throws UseAfterDisposeError', () => {
    const scorer = new AdditiveScorer({ queryDim: 2, keyDim: 2, hiddenDim: 2, seed: 1 });
    const query = zeros([1, 1, 2]);
    scorer.dispose();
    expect(thrown(() => scorer.score(query, query))).toBeInstanceOf(UseAfterDisposeError);
    expect(thrown(() => scorer.dispose()).message).toBe('AdditiveScorer.dispose: called after dispose() freed its weights. Create a new instance instead.');
    query.dispose();
  });

  it.each([
    [() => new AdditiveScorer({ queryDim: 0, keyDim: 5, hiddenDim: 7 }), "AdditiveScorer: 'queryDim' must be an integer ≥ 1; received number 0."],
    [() => new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 2.5 }), "AdditiveScorer: 'hiddenDim' must be an integer ≥ 1; received number 2.5."],
    [() => { const w = zeros([8, 7]); try { return new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, weights: { 'W_q.weight': w } }); } finally { w.dispose(); } },
      "AdditiveScorer: 'weights['W_q.weight']' must be shape [7, 8] (PyTorch layout, from the layer's configuration); received [8, 7]."],
  ])('rejects bad configuration %#', (make, message) => {
    const error = thrown(make);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('rejects inputs whose width does not match its configuration', () => {
    const scorer = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, seed: 1 });
    const query = zeros([2, 4, 8]);
    const key = zeros([2, 6, 8]);
    expect(thrown(() => scorer.score(query, key)).message).toBe("AdditiveScorer.score: 'key' must be last dim 5 (the scorer's keyDim); received [2, 6, 8].");
    [query, key].forEach((t) => t.dispose());
    scorer.dispose();
  });
});
