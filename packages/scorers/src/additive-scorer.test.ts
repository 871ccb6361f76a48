// Training needs tfjs' gradient functions; '@tensorflow/tfjs' registers them (tfjs-core alone does not).
import '@tensorflow/tfjs';
import { abs, memory, square, sum, variableGrads, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { StateDictError } from '@attnkit/nn';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/scorers.json' with { type: 'json' };
import { AdditiveScorer } from './additive-scorer.js';

const { cases } = fixtures as FixtureFile;
const names = Object.keys(cases).filter((n) => n.startsWith('additive'));
beforeAll(() => useBackend('cpu'));

function fromFixture(name: string): AdditiveScorer {
  const weights = Object.fromEntries(Object.entries(cases[name]!.weights!).map(([k, v]) => [k, fixtureTensor(v)]));
  const scorer = new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, bias: 'W_k.bias' in weights }, weights);
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
    const { value, grads } = variableGrads(() => sum(square(scorer.score(query, key))) as never, scorer.parameters());
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
    [() => new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, bias: 1 } as never), "AdditiveScorer: 'bias' must be true or false; received number 1."],
    [() => new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, weights: {} } as never),
      "AdditiveScorer: 'config' must be an object with only the keys queryDim, keyDim, hiddenDim, bias, seed; received the unknown key 'weights'."],
  ])('rejects bad configuration %#', (make, message) => {
    const error = thrown(make);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('refuses a checkpoint that does not fit its config in one StateDictError naming every problem, leaving no tensor', () => {
    const checkpoint = { 'W_q.weight': zeros([8, 7]), 'W_k.weight': zeros([7, 5]), 'W_k.bias': zeros([7]), 'w.weigth': zeros([1, 7]) };
    const before = memory().numTensors;
    const error = thrown(() => new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7 }, checkpoint));
    expect(error).toBeInstanceOf(StateDictError);
    expect(error.message).toBe(
      'AdditiveScorer: the state dict does not fit the module. 1 missing: w.weight. 2 unexpected: W_k.bias, w.weigth. 1 mis-shaped: W_q.weight (expected [7, 8] float32, received [8, 7] float32). For its config, this AdditiveScorer has W_q.weight [7, 8], W_k.weight [7, 5], w.weight [1, 7].',
    );
    expect(memory().numTensors).toBe(before);
    Object.values(checkpoint).forEach((t) => t.dispose());
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
