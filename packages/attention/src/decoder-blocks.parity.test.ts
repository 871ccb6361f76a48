import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mul, tensor, tidy, variable, type Tensor } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend, type ComparisonReport } from '@attnkit/backends';
import { decoderMask, paddingMaskFromIds } from '@attnkit/masks';
import { ParityTable, fixtureRows, fixtureTensor, fixtureValues, leaksOf, outputsAndGradients, scaledErrors, specOf, type FixtureCase, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/decoder-blocks.json' with { type: 'json' };
import { applyRotary } from './apply-rotary.js';
import { DecoderAttention } from './decoder-attention.js';
import { positionIdsFromMask } from './position-ids-from-mask.js';
import { repeatKv } from './repeat-kv.js';
import { rotaryConfigFromHuggingFace } from './rotary-config-from-hugging-face.js';
import { RotaryEmbedding } from './rotary-embedding.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale (values and gradients), against transformers 5.17 (float64 where it computes in float64). */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-5, webgpu: 1e-5 }; // WebGL and WebGPU too: their rotary tables come from preciseCosSin
const CASES = (fixtures as unknown as FixtureFile).cases;
const named = (prefix: string) => Object.keys(CASES).filter((name) => name.startsWith(`${prefix} `));
const table = new ParityTable(`decoder blocks (values and gradients) vs transformers 5.17, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);
/** The largest scaled error seen per backend, printed at the end (docs/attention.md quotes it). */
const worst: Record<string, number> = {};

beforeAll(() => useBackend('cpu'));
afterAll(() => {
  table.print();
  console.log(`largest scaled error per backend: ${Object.entries(worst).map(([backend, error]) => `${backend} ${error.toExponential(1)}`).join(', ')}`);
});

function expectWithin(name: string, report: ComparisonReport, reference: Record<string, ArrayLike<number>>): void {
  table.add(name, report);
  expect(new Set(report.results[0]!.outputs.map((o) => o.output))).toEqual(new Set(Object.keys(reference)));
  for (const [backend, output, error] of scaledErrors(report, reference)) {
    worst[backend] = Math.max(worst[backend] ?? 0, error);
    expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
  }
}

/** The tensor inputs of a case, those named in `differentiable` as variables. */
function inputsOf(spec: FixtureCase, differentiable: readonly string[]): Record<string, Tensor> {
  const out: Record<string, Tensor> = {};
  for (const [key, value] of Object.entries(spec.inputs)) {
    if (key.startsWith('cotangent') || value === null || typeof value !== 'object' || Array.isArray(value) || !('data' in value)) continue;
    const t = fixtureTensor(specOf(spec.inputs, key));
    out[key] = differentiable.includes(key) ? variable(t) : t;
    if (differentiable.includes(key)) t.dispose();
  }
  return out;
}

const cotangentsOf = (spec: FixtureCase): Record<string, Tensor> =>
  Object.fromEntries(Object.keys(spec.inputs).filter((key) => key.startsWith('cotangent')).map((key) => [key === 'cotangent' ? 'output' : key.slice('cotangent.'.length), fixtureTensor(specOf(spec.inputs, key))]));

describe('decoder blocks equal transformers 5.17 on every backend', () => {
  it('has the fixture cases: 8 rope, 2 apply_rotary, 2 repeat_kv, 3 attention layers', () => {
    expect([named('rope'), named('apply_rotary'), named('repeat_kv'), named('attention')].map((list) => list.length)).toEqual([8, 2, 2, 3]);
  });

  it.each(named('rope'))('RotaryEmbedding cos and sin, call after call: %s', async (name) => {
    const spec = CASES[name]!;
    const config = rotaryConfigFromHuggingFace(spec.inputs['config'] as unknown as Record<string, unknown>);
    const calls = spec.inputs['calls'] as number;
    const positions = Array.from({ length: calls }, (_, i) => fixtureTensor(specOf(spec.inputs, `position_ids.${i}`)));
    const run = () => {
      const rotary = new RotaryEmbedding(config); // fresh: dynamic's state changes call by call, as transformers'
      return Object.fromEntries(positions.flatMap((ids, i) => Object.entries(rotary.forward(ids)).map(([key, t]) => [`${key}.${i}`, t])));
    };
    const reference = Object.fromEntries(Object.keys(spec.outputs).filter((key) => /^(cos|sin)\./.test(key)).map((key) => [key, fixtureValues(specOf(spec.outputs, key))]));
    expect(await leaksOf(() => Object.values(run()).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    expectWithin(name, await compareBackends(run, { backends: BACKENDS, reference }), reference);
    positions.forEach((t) => t.dispose());
  });

  it.each([...named('apply_rotary'), ...named('repeat_kv')])('%s (values and gradients)', async (name) => {
    const spec = CASES[name]!;
    const rotary = name.startsWith('apply_rotary');
    const differentiable = rotary ? ['query', 'key'] : ['x'];
    const inputs = inputsOf(spec, differentiable);
    const cotangents = cotangentsOf(spec);
    const run = () => (rotary ? { ...applyRotary(inputs['query']!, inputs['key']!, inputs['cos']!, inputs['sin']!) } : { output: repeatKv(inputs['x']!, spec.inputs['num_repeats'] as number) });
    const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
    expect(await leaksOf(() => Object.values(run()).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    const wrt = differentiable.map((key) => [key, inputs[key]] as [string, never]);
    expectWithin(name, await compareBackends(() => outputsAndGradients(run, cotangents, wrt), { backends: BACKENDS, reference }), reference);
    [...Object.values(inputs), ...Object.values(cotangents)].forEach((t) => t.dispose());
  });

  it.each(named('attention'))('DecoderAttention equals %s (output, weights, gradients of every parameter and the hidden states)', async (name) => {
    const spec = CASES[name]!;
    const config = spec.inputs['config'] as unknown as Record<string, unknown>;
    const sliding = (config['layer_types'] as string[] | undefined)?.[0] === 'sliding_attention' ? (config['sliding_window'] as number) : undefined;
    const module = new DecoderAttention({
      embedDim: config['hidden_size'] as number,
      numHeads: config['num_attention_heads'] as number,
      numKeyValueHeads: config['num_key_value_heads'] as number,
      headDim: config['head_dim'] as number,
      bias: config['attention_bias'] as boolean,
      queryKeyNorm: config['model_type'] === 'qwen3',
      rmsNormEps: config['rms_norm_eps'] as number,
    }, Object.fromEntries(Object.entries(spec.weights ?? {}).map(([key, w]) => [key, { shape: w.shape as number[], values: Float32Array.from(fixtureValues(w)) }])));
    const rotary = new RotaryEmbedding(rotaryConfigFromHuggingFace(config));
    const inputs = inputsOf(spec, ['hidden_states']);
    const rows = fixtureRows(spec.inputs, 'attention_mask');
    const ids = positionIdsFromMask(rows);
    expect(Array.from(await ids.data())).toEqual(fixtureValues(specOf(spec.inputs, 'position_ids'))); // transformers' generate() positions
    ids.dispose();
    const [batch, length] = [rows.length, rows[0]!.length];
    const real = rows.flat(); // [B, T]: 1 = a token's query row (padded rows are compared as zeros on both sides: see the generator)
    const run = () => tidy(() => {
      const padding = paddingMaskFromIds(rows);
      const attentionMask = decoderMask(length, length, { padding, slidingWindow: sliding });
      const { output, attentionWeights } = module.forward(inputs['hidden_states']!, { positionEmbeddings: rotary.forward(inputs['position_ids']!), attentionMask, returnWeights: true });
      return { output: mul(output, tensor(real, [batch, length, 1])), attn_weights: mul(attentionWeights!, tensor(real, [batch, 1, length, 1])) };
    });
    const width = config['hidden_size'] as number;
    const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
    reference['output'] = reference['output']!.map((v, i) => v * real[Math.floor(i / width)]!);
    const heads = config['num_attention_heads'] as number;
    reference['attn_weights'] = reference['attn_weights']!.map((v, i) => v * real[rowOf(i, heads, length)]!);
    expect(await leaksOf(() => Object.values(run()).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    const wrt = [...module.namedParameters(), ['hidden_states', inputs['hidden_states']]] as Array<[string, never]>;
    const cotangents = cotangentsOf(spec);
    expectWithin(name, await compareBackends(() => outputsAndGradients(run, cotangents, wrt), { backends: BACKENDS, reference }), reference);
    [...Object.values(inputs), ...Object.values(cotangents)].forEach((t) => t.dispose());
    module.dispose();
    rotary.dispose();
  });
});

/** The query row (an index into `[B, T]`) of element i of attention weights `[B, H, T, S]`, S = T. */
function rowOf(i: number, heads: number, length: number): number {
  return Math.floor(i / (heads * length * length)) * length + (Math.floor(i / length) % length);
}
