import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variable, type Tensor } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, leaksOf, outputsAndGradients, scaledErrors, specOf, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/decoder-blocks.json' with { type: 'json' };
import type { Module } from '../module/module.js';
import { GatedFeedForward } from './gated-feed-forward.js';
import { GemmaRMSNorm } from './gemma-rms-norm.js';
import { RMSNorm } from './rms-norm.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale (values and gradients), against transformers in float64. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const CASES = (fixtures as unknown as FixtureFile).cases;
const named = (prefix: string) => Object.keys(CASES).filter((name) => name.startsWith(`${prefix} `));
const table = new ParityTable(`decoder layers (values and gradients) vs transformers 5.17, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

/** The largest scaled error seen per backend, printed at the end (docs/nn.md quotes it). */
const worst: Record<string, number> = {};

beforeAll(() => useBackend('cpu'));
afterAll(() => {
  table.print();
  console.log(`largest scaled error per backend: ${Object.entries(worst).map(([backend, error]) => `${backend} ${error.toExponential(1)}`).join(', ')}`);
});

/** Loads the case's weights into `module` (strictly), runs it on every backend under a gradient tape, checks outputs and gradients. */
async function check(name: string, module: Module): Promise<void> {
  const spec = CASES[name]!;
  const weights = Object.fromEntries(Object.entries(spec.weights ?? {}).map(([key, w]) => [key, fixtureTensor(w)]));
  module.loadStateDict(weights);
  Object.values(weights).forEach((w) => w.dispose());
  const given = fixtureTensor(specOf(spec.inputs, 'x'));
  const x = variable(given);
  const cotangent = fixtureTensor(specOf(spec.inputs, 'cotangent'));
  const run = () => (module as unknown as { forward(x: Tensor): Tensor }).forward(x);
  const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
  expect(await leaksOf(() => run().dispose())).toEqual({ tensors: 0, bytes: 0 });
  const wrt = [...module.namedParameters(), ['x', x] as const] as Array<[string, never]>;
  const report = await compareBackends(() => outputsAndGradients(() => ({ output: run() }), { output: cotangent }, wrt), { backends: BACKENDS, reference });
  table.add(name, report);
  expect(new Set(report.results[0]!.outputs.map((o) => o.output))).toEqual(new Set(Object.keys(reference)));
  for (const [backend, output, error] of scaledErrors(report, reference)) {
    worst[backend] = Math.max(worst[backend] ?? 0, error);
    expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
  }
  [given, x, cotangent].forEach((t) => t.isDisposed || t.dispose());
  module.dispose();
}

describe('decoder layers equal transformers (values and gradients of the input and every weight)', () => {
  it('has the fixture cases: 3 RMSNorms and 3 gated MLPs', () => {
    expect(named('rms_norm')).toHaveLength(3);
    expect(named('gated_mlp')).toHaveLength(3);
  });

  it.each(named('rms_norm'))('LlamaRMSNorm / GemmaRMSNorm: %s', async (name) => {
    const { eps, kind } = CASES[name]!.inputs as { eps: number; kind: string };
    await check(name, kind === 'GemmaRMSNorm' ? new GemmaRMSNorm(8, { eps }) : new RMSNorm(8, { eps }));
  });

  it.each(named('gated_mlp'))('LlamaMLP: %s', async (name) => {
    const i = CASES[name]!.inputs as { activation: string; bias: boolean; embed_dim: number; feed_forward_dim: number };
    await check(name, new GatedFeedForward({ embedDim: i.embed_dim, feedForwardDim: i.feed_forward_dim, activation: i.activation, bias: i.bias }));
  });
});
