import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variable, variableGrads, type Tensor, type Tensor1D, type Tensor2D, type Variable } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, leaksOf, scaledErrors, specOf, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/training.json' with { type: 'json' };
import { cosineSimilarityLoss } from './cosine-similarity-loss.js';
import { multipleNegativesRankingLoss } from './multiple-negatives-ranking-loss.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu.
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale (loss and gradients), against float64 sentence-transformers. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-4, webgpu: 1e-4 };
const CASES = (fixtures as unknown as FixtureFile).cases;
const table = new ParityTable('losses (value / gradients) vs float64 sentence-transformers 6.0.1');

beforeAll(() => useBackend('cpu'));
const worstScaled: Record<string, number> = {};
afterAll(() => {
  table.print();
  console.log(`worst error relative to the reference's scale: ${Object.entries(worstScaled).map(([k, v]) => `${k} ${v.toExponential(1)}`).join(', ')}`);
});

/** Runs `loss` over the named inputs (as variables) under `variableGrads` on every backend and checks loss and gradients. */
async function check(name: string, inputNames: readonly string[], loss: (inputs: Readonly<Record<string, Variable>>) => Tensor): Promise<void> {
  const spec = CASES[name]!;
  const inputs = Object.fromEntries(inputNames.map((key) => [key, variable(fixtureTensor(specOf(spec.inputs, key)))]));
  const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
  expect(await leaksOf(() => loss(inputs).dispose())).toEqual({ tensors: 0, bytes: 0 });
  const report = await compareBackends(() => {
    const { value, grads } = variableGrads(() => loss(inputs) as never, Object.values(inputs));
    return { loss: value, ...Object.fromEntries(inputNames.map((key) => [`grad.${key}`, grads[inputs[key]!.name]!])) };
  }, { backends: BACKENDS, reference });
  table.add(name, report);
  expect(report.results.flatMap((r) => r.outputs.map((o) => o.output)).sort()).toEqual(BACKENDS.flatMap(() => Object.keys(reference)).sort());
  for (const [backend, output, error] of scaledErrors(report, reference)) {
    const key = `${backend} ${name.split(' ')[0]} ${output === 'loss' ? 'loss' : 'gradients'}`;
    worstScaled[key] = Math.max(worstScaled[key] ?? 0, error);
    expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
  }
  Object.values(inputs).forEach((v) => v.dispose());
}

describe('losses equal sentence-transformers (float64 reference) in value and gradients', () => {
  const mnrl = Object.keys(CASES).filter((name) => name.startsWith('mnrl '));
  it.each(mnrl)('MultipleNegativesRankingLoss: %s', async (name) => {
    const spec = CASES[name]!;
    const negatives = Array.from({ length: Number(spec.inputs['negatives']) }, (_, i) => `negative${i}`);
    await check(name, ['anchors', 'positives', ...negatives], (x) =>
      multipleNegativesRankingLoss(x['anchors'] as Tensor2D, x['positives'] as Tensor2D, { scale: Number(spec.inputs['scale']), hardNegatives: negatives.map((key) => x[key] as Tensor2D) }),
    );
  });

  const cosine = Object.keys(CASES).filter((name) => name.startsWith('cosine '));
  it.each(cosine)('CosineSimilarityLoss: %s', async (name) => {
    const labels = fixtureTensor(specOf(CASES[name]!.inputs, 'labels')) as Tensor1D;
    await check(name, ['a', 'b'], (x) => cosineSimilarityLoss(x['a'] as Tensor2D, x['b'] as Tensor2D, labels));
    const asNumbers = cosineSimilarityLoss(fixtureTensor(specOf(CASES[name]!.inputs, 'a')) as Tensor2D, fixtureTensor(specOf(CASES[name]!.inputs, 'b')) as Tensor2D, fixtureValues(specOf(CASES[name]!.inputs, 'labels')));
    expect((await asNumbers.data())[0]).toBeCloseTo(fixtureValues(CASES[name]!.outputs['loss']!)[0]!, 5);
    labels.dispose();
  });

  it('covers every case of the fixture', () => {
    expect(mnrl.length).toBe(6);
    expect(cosine.length).toBe(2);
  });
});
