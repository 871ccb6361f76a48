import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add, square, sum, variableGrads, type Scalar, type Tensor } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { loadCausalLM } from '@attnkit/models';
import { ParityTable, fixtureValues, scaledErrors, servedPath, fixtureRows, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/causal-lm.json' with { type: 'json' };
import { causalLanguageModelLoss } from './causal-language-model-loss.js';

// causalLanguageModelLoss through loadCausalLM's model, against transformers 5.17's …ForCausalLM(labels=...)
// in float64 (tooling/reference/make_causal_lm_fixtures.py): the loss, a few parameters' gradients and the
// sum of the squares of every gradient. Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu.
const BACKENDS = await availableBackends();
/**
 * Max error relative to the reference's scale, against float64 transformers: the loss as the masked-LM
 * loss's test; the gradients on WebGPU as on WebGL (measured in headless Chromium: 5.1e-4 on Llama's
 * layer-0 q_proj gradient on both, whose numbers there are the same; cpu and wasm ≤ 1.2e-6).
 */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const GRADIENT_TOLERANCE: Record<string, number> = { ...TOLERANCE, webgpu: 1e-3 };
const CASES = Object.entries((fixtures as unknown as FixtureFile & { cases: Record<string, { folder: string }> }).cases);
const table = new ParityTable('causal-LM loss and gradients vs float64 transformers …ForCausalLM(labels=...)');

beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

describe("causalLanguageModelLoss through a causal LM equals transformers' loss, in value and gradients", () => {
  it('has the four cases', () => expect(CASES.map(([name]) => name)).toEqual(['llama-right-padded', 'llama-prompt-ignored', 'llama-left-padded', 'gpt2-right-padded']));

  it.each(CASES)('%s', async (name, spec) => {
    const c = spec as unknown as FixtureFile['cases'][string] & { folder: string };
    const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern as an asset glob
    const model = await loadCausalLM(servedPath(new URL(`../../../../tooling/reference/fixtures/${c.folder}/`, here)));
    const inputIds = fixtureRows(c.inputs, 'input_ids');
    const labels = fixtureRows(c.inputs, 'labels');
    const attentionMask = c.inputs['attention_mask'] === undefined ? undefined : fixtureRows(c.inputs, 'attention_mask');
    const reference = Object.fromEntries(Object.entries(c.outputs).map(([key, t]) => [key, fixtureValues(t)]));
    const named = new Map(model.namedParameters());
    const wanted = Object.keys(reference).filter((k) => k.startsWith('grad.')).map((k) => k.slice('grad.'.length));
    expect(wanted.every((k) => named.has(k)), wanted.join()).toBe(true);
    const report = await compareBackends(() => {
      const { value, grads } = variableGrads(() => {
        const { logits } = model.forward(attentionMask === undefined ? { inputIds } : { inputIds, attentionMask }); // [B, T, V]
        return causalLanguageModelLoss(logits, labels, attentionMask === undefined ? {} : { attentionMask }) as Scalar;
      }, [...named.values()]);
      const total = Object.values(grads).map((g) => sum(square(g))).reduce((s, g) => add(s, g)); // every parameter once
      const out = { loss: value, grad_sum_of_squares: total, ...Object.fromEntries(wanted.map((k) => [`grad.${k}`, grads[named.get(k)!.name]!])) };
      for (const [key, g] of Object.entries(grads)) if (!wanted.some((k) => named.get(k)!.name === key)) g.dispose();
      return out;
    }, { backends: BACKENDS, reference });
    table.add(name, report);
    for (const [backend, output, error] of scaledErrors(report, reference)) expect(error, `${backend} ${output}`).toBeLessThanOrEqual((output === 'loss' ? TOLERANCE : GRADIENT_TOLERANCE)[backend]!);
    model.dispose();
  }, 60_000);
});
