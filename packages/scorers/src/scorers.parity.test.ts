import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, specOf, type FixtureFile } from '@attnkit/test-utils';
import scorerFixtures from '@attnkit/reference/fixtures/scorers.json' with { type: 'json' };
import poolingFixtures from '@attnkit/reference/fixtures/pooling.json' with { type: 'json' };
import { AdditiveScorer } from './additive-scorer.js';
import { attentionPooling } from './attention-pooling.js';
import { BilinearScorer } from './bilinear-scorer.js';
import { dotProductScorer } from './dot-product-scorer.js';
import { scaledDotProductScorer } from './scaled-dot-product-scorer.js';
import type { Scorer } from './scorer.js';
import { SelfAttentionScorer } from './self-attention-scorer.js';
import { seqFirstDotProductScorer } from './seq-first-dot-product-scorer.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-5 };
const table = new ParityTable(`scorers vs PyTorch, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);
beforeAll(() => useBackend('cpu'));
function weightsOf(spec: FixtureFile['cases'][string]): Record<string, ReturnType<typeof fixtureTensor>> {
  return Object.fromEntries(Object.entries(spec.weights ?? {}).map(([k, v]) => [k, fixtureTensor(v)]));
}
function scorerFor(name: string, spec: FixtureFile['cases'][string]): Scorer {
  const weights = weightsOf(spec);
  if (name.startsWith('dot')) return dotProductScorer;
  if (name.startsWith('scaled dot')) return scaledDotProductScorer;
  if (name.startsWith('seq-first')) return seqFirstDotProductScorer;
  if (name.startsWith('additive pooling')) return new AdditiveScorer({ queryDim: 6, keyDim: 6, hiddenDim: 6 }, weights);
  if (name.startsWith('additive')) return new AdditiveScorer({ queryDim: 8, keyDim: 5, hiddenDim: 7, bias: 'W_k.bias' in weights }, weights);
  if (name.startsWith('bilinear')) return new BilinearScorer({ queryDim: 8, keyDim: 5 }, weights);
  return new SelfAttentionScorer({ embedDim: 6 }, weights);
}

describe('scorers vs PyTorch on every backend here', () => {
  for (const [name, spec] of Object.entries((scorerFixtures as FixtureFile).cases)) {
    it(`within tolerance on every backend: ${name}`, async () => {
      const scorer = scorerFor(name, spec);
      const x = 'x' in spec.inputs ? fixtureTensor(specOf(spec.inputs, 'x')) : undefined;
      const query = x ?? fixtureTensor(specOf(spec.inputs, 'query'));
      const key = x ?? fixtureTensor(specOf(spec.inputs, 'key'));
      const report = await compareBackends(() => scorer.score(query, key), { backends: BACKENDS, tolerance: TOLERANCE, reference: { output: fixtureValues(specOf(spec.outputs, 'scores')) } });
      table.add(name, report);
      expect(report.ok).toBe(true);
    });
  }

  for (const [name, spec] of Object.entries((poolingFixtures as FixtureFile).cases)) {
    it(`attentionPooling within tolerance on every backend: ${name}`, async () => {
      const scorer = scorerFor(name, spec);
      const [values, mask, query] = ['values', 'mask', 'query'].map((n) => fixtureTensor(specOf(spec.inputs, n)));
      const report = await compareBackends(() => ({ ...attentionPooling(scorer, values!, mask, query!) }), {
        backends: BACKENDS, tolerance: TOLERANCE,
        reference: { output: fixtureValues(specOf(spec.outputs, 'output')), attentionWeights: fixtureValues(specOf(spec.outputs, 'attentionWeights')) },
      });
      table.add(name, report);
      expect(report.ok).toBe(true);
    });
  }
});

afterAll(() => table.print());
