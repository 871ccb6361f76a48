import { ones, tensor, variable, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/pooling.json' with { type: 'json' };
import { AdditiveScorer } from './additive-scorer.js';
import { attentionPooling } from './attention-pooling.js';
import { dotProductScorer } from './dot-product-scorer.js';
import type { Scorer } from './scorer.js';

const { cases } = fixtures as FixtureFile;
beforeAll(() => useBackend('cpu'));

function scorerFor(name: string): Scorer & { dispose?: () => void } {
  const weights = cases[name]!.weights;
  if (weights === undefined) return dotProductScorer;
  const given = Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, fixtureTensor(v)]));
  const scorer = new AdditiveScorer({ queryDim: 6, keyDim: 6, hiddenDim: 6 }, given);
  Object.values(given).forEach((t) => t.dispose());
  return scorer;
}

describe('attentionPooling', () => {
  it.each(Object.keys(cases))("equals seed 003's pooling from PyTorch within 1e-5 on cpu and wasm (empty sequence -> zeros): %s", async (name) => {
    const { inputs, outputs } = cases[name]!;
    const scorer = scorerFor(name);
    const [values, mask, query] = ['values', 'mask', 'query'].map((n) => fixtureTensor(specOf(inputs, n)));
    const run = () => attentionPooling(scorer, values!, mask, query!);
    const report = await compareBackends(() => ({ ...run() }), {
      backends: ['cpu', 'wasm'],
      tolerance: 1e-5,
      reference: { output: fixtureValues(specOf(outputs, 'output')), attentionWeights: fixtureValues(specOf(outputs, 'attentionWeights')) },
    });
    expect(report.ok).toBe(true);
    expect(report.results[0]?.outputs.map((o) => o.shape)).toEqual([[3, 6], [3, 4]]);
    const { output } = run();
    expect(Array.from((await output.data()).slice(12, 18))).toEqual([0, 0, 0, 0, 0, 0]); // lengths [4, 2, 0]: third is empty
    output.dispose();
    expect(await leaksOf(() => { const r = run(); r.output.dispose(); r.attentionWeights.dispose(); })).toEqual({ tensors: 0, bytes: 0 });
    [values, mask, query].forEach((t) => t?.dispose());
    scorer.dispose?.();
  });

  it('takes a trainable query of shape [Dq], [1, Dq] or [B, Dq]', () => {
    const values = ones([2, 3, 4]);
    for (const shape of [[4], [1, 4], [2, 4]]) {
      const query = variable(zeros(shape));
      const { output, attentionWeights } = attentionPooling(dotProductScorer, values, undefined, query);
      expect([output.shape, attentionWeights.shape]).toEqual([[2, 4], [2, 3]]);
      [query, output, attentionWeights].forEach((t) => t.dispose());
    }
    values.dispose();
  });

  it('rejects a [B, S] mask with the paddingMask hint, and mismatched queries and values', () => {
    const values = ones([2, 3, 4]);
    const query = zeros([4]);
    const flat = tensor([[true, true, false], [true, false, false]], [2, 3], 'bool');
    const cases: Array<[() => unknown, string]> = [
      [() => attentionPooling(dotProductScorer, values, flat, query), "attentionPooling: 'mask' must be broadcastable to [B, H, T, S] = [2, 1, 1, 3] (read as [T, S]; each dimension 1 or equal); received [2, 3], whose dimension 0 (T) is 2, expected 1 or 1. A [B, S] padding mask must be expanded to [B, 1, 1, S]; use paddingMask() or paddingMaskFromIds()."],
      [() => attentionPooling(dotProductScorer, values, undefined, zeros([3, 4])), "attentionPooling: 'query' must be [Dq], [1, Dq] or [B, Dq] with B = 2; received [3, 4]."],
      [() => attentionPooling(dotProductScorer, values, undefined, zeros([5])), "dotProductScorer: 'key' must be the head dim of 'query' (D = 5) in its last axis; received [2, 3, 4]."],
      [() => attentionPooling(dotProductScorer, zeros([2, 3]), undefined, query), "attentionPooling: 'values' must be a float32 tensor of rank 3 [B, S, E]; received float32 tensor of rank 2 [2, 3]."],
    ];
    for (const [call, message] of cases) {
      const error = thrown(call);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    }
    [values, query, flat].forEach((t) => t.dispose());
  });
});
