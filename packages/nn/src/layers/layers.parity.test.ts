import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variable, type Tensor } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, leaksOf, outputsAndGradients, scaledErrors, specOf, type FixtureCase, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/nn-layers.json' with { type: 'json' };
import type { Module } from '../module/module.js';
import { activationByName } from '../ops/activation-by-name.js';
import { Embedding } from './embedding.js';
import { FeedForward } from './feed-forward.js';
import { LayerNorm } from './layer-norm.js';
import { Linear } from './linear.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale (values and gradients), against float64 PyTorch. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-4, webgpu: 1e-4 };
const CASES = (fixtures as FixtureFile).cases;
const table = new ParityTable(`nn layers (values and gradients) vs float64 PyTorch, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

/**
 * Loads the case's weights into `module` (through `loadStateDict`, strict), runs `run` under a
 * gradient tape on every backend and checks outputs and gradients against the fixture.
 */
async function check(name: string, module: Module | undefined, inputName: string, run: (input: Tensor) => Tensor, differentiable = true): Promise<void> {
  const spec: FixtureCase = CASES[name]!;
  const weights = Object.fromEntries(Object.entries(spec.weights ?? {}).map(([key, w]) => [key, fixtureTensor(w)]));
  module?.loadStateDict(weights);
  Object.values(weights).forEach((w) => w.dispose());
  const given = fixtureTensor(specOf(spec.inputs, inputName));
  const input = differentiable ? variable(given) : given;
  const cotangent = fixtureTensor(specOf(spec.inputs, 'cotangent'));
  const wrt = [...(module?.namedParameters() ?? []), ...(differentiable ? [[inputName, input] as const] : [])] as Array<[string, never]>;
  const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
  // Leaks first, on cpu: afterwards the data sits on the last backend compared (a sync read back from WebGPU can stall).
  expect(await leaksOf(() => run(input).dispose())).toEqual({ tensors: 0, bytes: 0 });
  const report = await compareBackends(() => outputsAndGradients(() => ({ output: run(input) }), { output: cotangent }, wrt), { backends: BACKENDS, reference });
  table.add(name, report);
  expect(report.results.flatMap((r) => r.outputs.map((o) => o.output)).sort()).toEqual(BACKENDS.flatMap(() => Object.keys(reference)).sort());
  for (const [backend, output, error] of scaledErrors(report, reference)) expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
  [input, given, cotangent].forEach((t) => t.isDisposed || t.dispose());
  module?.dispose();
}

describe('nn layers equal PyTorch (float64 reference) in values and gradients', () => {
  it('Linear with and without bias', async () => {
    const withBias = new Linear(5, 7);
    await check('linear bias [2,3,5]->7', withBias, 'x', (x) => withBias.forward(x));
    const noBias = new Linear(5, 3, { bias: false });
    await check('linear no bias [4,5]->3', noBias, 'x', (x) => noBias.forward(x));
  });

  it('Embedding, repeated ids, and padding_idx (no gradient into the padding row)', async () => {
    const plain = new Embedding(11, 6);
    await check('embedding 11x6', plain, 'ids', (ids) => plain.forward(ids), false);
    const padded = new Embedding(11, 6, { paddingIdx: 0 });
    await check('embedding padding_idx 0', padded, 'ids', (ids) => padded.forward(ids), false);
  });

  it.each([['layer_norm 8 eps 1e-5', 1e-5], ['layer_norm 8 eps 1e-12', 1e-12]])('LayerNorm: %s', async (name, eps) => {
    const norm = new LayerNorm(8, { eps });
    await check(name, norm, 'x', (x) => norm.forward(x));
  });

  it('LayerNorm without affine parameters', async () => {
    const norm = new LayerNorm(8, { elementwiseAffine: false });
    expect(norm.namedParameters()).toEqual([]);
    await check('layer_norm no affine', norm, 'x', (x) => norm.forward(x));
  });

  const activations = Object.keys(CASES).filter((name) => name.startsWith('activation '));
  it.each(activations)('%s (Hugging Face ACT2FN)', async (name) => {
    const activation = activationByName(String(CASES[name]!.inputs['name']));
    await check(name, undefined, 'x', (x) => activation(x));
  });

  it.each(['feed_forward relu 8->16->8', 'feed_forward gelu 8->16->8'])('FeedForward: %s', async (name) => {
    const block = new FeedForward({ embedDim: 8, feedForwardDim: 16, activation: String(CASES[name]!.inputs['activation']) });
    await check(name, block, 'x', (x) => block.forward(x));
  });
});
