import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variable, type Tensor } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import type { Module } from '@attnkit/nn';
import { ParityTable, fixtureTensor, fixtureValues, leaksOf, outputsAndGradients, scaledErrors, specOf, type FixtureCase, type FixtureFile } from '@attnkit/test-utils';
import encoderFixtures from '@attnkit/reference/fixtures/transformer-encoder.json' with { type: 'json' };
import biasFixtures from '@attnkit/reference/fixtures/attention-bias.json' with { type: 'json' };
import { MultiHeadAttention } from './multi-head-attention.js';
import { scaledDotProductAttention } from './scaled-dot-product-attention.js';
import { TransformerEncoder } from './transformer-encoder.js';
import { TransformerEncoderLayer } from './transformer-encoder-layer.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale (values and gradients), against float64 PyTorch. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const table = new ParityTable(`Transformer encoder and attention bias (values and gradients) vs float64 PyTorch, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

/** Runs `run` on every backend with gradients for `module`'s parameters and the `differentiable` inputs; checks all against the fixture. */
async function check(name: string, spec: FixtureCase, module: Module | undefined, differentiable: string[], run: (inputs: Record<string, Tensor>) => Record<string, Tensor>): Promise<void> {
  const weights = Object.fromEntries(Object.entries(spec.weights ?? {}).map(([key, w]) => [key, fixtureTensor(w)]));
  module?.loadStateDict(weights);
  Object.values(weights).forEach((w) => w.dispose());
  const inputs: Record<string, Tensor> = {};
  for (const [key, value] of Object.entries(spec.inputs)) {
    if (key === 'cotangent' || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const t = fixtureTensor(specOf(spec.inputs, key));
    inputs[key] = differentiable.includes(key) ? variable(t) : t;
    if (differentiable.includes(key)) t.dispose();
  }
  const cotangent = spec.inputs['cotangent'] === undefined ? undefined : fixtureTensor(specOf(spec.inputs, 'cotangent'));
  const wrt = [...(module?.namedParameters() ?? []), ...differentiable.map((key) => [key, inputs[key]] as const)] as Array<[string, never]>;
  const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
  // Leaks first, on cpu: afterwards the data sits on the last backend compared (a sync read back from WebGPU can stall).
  expect(await leaksOf(() => Object.values(run(inputs)).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
  const report = await compareBackends(() => outputsAndGradients(() => run(inputs), cotangent === undefined ? {} : { output: cotangent }, wrt), { backends: BACKENDS, reference });
  table.add(name, report);
  expect(new Set(report.results[0]!.outputs.map((o) => o.output))).toEqual(new Set(Object.keys(reference)));
  for (const [backend, output, error] of scaledErrors(report, reference)) expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
  [...Object.values(inputs), cotangent].forEach((t) => t?.dispose());
  module?.dispose();
}

describe('TransformerEncoderLayer / TransformerEncoder equal torch.nn (values and gradients of every parameter and of src)', () => {
  const cases = (encoderFixtures as FixtureFile).cases;
  it.each(Object.keys(cases))('%s', async (name) => {
    const spec = cases[name]!;
    const i = spec.inputs as Record<string, unknown>;
    const config = { embedDim: i['d_model'] as number, numHeads: i['nhead'] as number, feedForwardDim: i['dim_feedforward'] as number, dropout: 0, activation: i['activation'] as string, layerNormEps: i['layer_norm_eps'] as number, normFirst: i['norm_first'] as boolean };
    const module = i['num_layers'] === undefined ? new TransformerEncoderLayer(config) : new TransformerEncoder({ ...config, numLayers: i['num_layers'] as number, finalNorm: i['final_norm'] as boolean });
    await check(name, spec, module, ['src'], (inputs) => ({
      output: module.forwardTorch(inputs['src']!, { mask: inputs['mask'], srcKeyPaddingMask: inputs['src_key_padding_mask'], batchFirst: i['batch_first'] as boolean }),
    }));
  });
});

describe('attention with a float bias beside the bool mask equals PyTorch', () => {
  const cases = (biasFixtures as FixtureFile).cases;
  it.each(Object.keys(cases).filter((n) => n.startsWith('mha')))('nn.MultiheadAttention, %s', async (name) => {
    const spec = cases[name]!;
    const mha = new MultiHeadAttention({ embedDim: spec.inputs['embed_dim'] as number, numHeads: spec.inputs['num_heads'] as number });
    await check(name, spec, mha, ['query', 'key', 'value'], (inputs) => {
      const { output, attentionWeights } = mha.forwardTorch(inputs['query']!, inputs['key']!, inputs['value']!, { attnMask: inputs['attn_mask'], keyPaddingMask: inputs['key_padding_mask'] });
      return { output, attn_weights: attentionWeights! };
    });
  });

  it.each(Object.keys(cases).filter((n) => n.startsWith('sdpa')))('scaledDotProductAttention, %s', async (name) => {
    const spec = cases[name]!;
    const differentiable = spec.inputs['cotangent'] === undefined ? [] : ['query', 'key', 'value', 'bias']; // ALiBi: values only
    await check(name, spec, undefined, differentiable, (inputs) => {
      const { output, attentionWeights } = scaledDotProductAttention(inputs['query']!, inputs['key']!, inputs['value']!, { bias: inputs['bias'], mask: inputs['mask'] });
      return { output, weights: attentionWeights };
    });
  });
});
