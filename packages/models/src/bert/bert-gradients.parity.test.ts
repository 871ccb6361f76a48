import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, outputsAndGradients, scaledErrors, specOf, type FixtureFile, servedPath, fixtureRows } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/bert-grad.json' with { type: 'json' };
import { loadBert } from './load-bert.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale, against float64 Hugging Face transformers. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const CASES = (fixtures as FixtureFile).cases;
const table = new ParityTable(`BertModel gradients of every parameter vs float64 transformers.BertModel, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

/** A folder next to the sources: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  return servedPath(new URL(relative, import.meta.url));
}

beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

describe('BertModel trains like transformers.BertModel: values and gradients of a scalar loss w.r.t. every parameter', () => {
  it.each(Object.keys(CASES))('%s', async (name) => {
    const spec = CASES[name]!;
    const model = await loadBert(folder(`../../../../tooling/reference/fixtures/${String(spec.inputs['model'])}/`));
    const inputs = { inputIds: fixtureRows(spec.inputs, 'input_ids'), attentionMask: fixtureRows(spec.inputs, 'attention_mask'), tokenTypeIds: fixtureRows(spec.inputs, 'token_type_ids') };
    const cotangents = { last_hidden_state: fixtureTensor(specOf(spec.inputs, 'cotangent.last_hidden_state')), pooler_output: fixtureTensor(specOf(spec.inputs, 'cotangent.pooler_output')) };
    const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
    expect(model.namedParameters().map(([key]) => `grad.${key}`).sort()).toEqual(Object.keys(reference).filter((k) => k.startsWith('grad.')).sort()); // the tree's names are transformers' names
    const report = await compareBackends(() => outputsAndGradients(() => {
      const out = model.forward(inputs);
      return { last_hidden_state: out.lastHiddenState, pooler_output: out.poolerOutput };
    }, cotangents, model.namedParameters()), { backends: BACKENDS, reference });
    table.add(name, report);
    // The key biases' gradients are 0 in exact arithmetic (softmax cancels a shift of every score;
    // transformers gives ~1e-16): a relative error means nothing there, so they must be ~0 in absolute terms.
    const zeroGradient = (output: string) => /attention\.self\.key\.bias$/.test(output);
    for (const [backend, output, error] of scaledErrors(report, reference)) if (!zeroGradient(output)) expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
    for (const { backend, outputs } of report.results) for (const o of outputs) if (zeroGradient(o.output)) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(backend === 'webgl' ? 1e-4 : 1e-6);
    Object.values(cotangents).forEach((t) => t.dispose());
    model.dispose();
  }, 120_000);

  it('loads the legacy checkpoint format (bert. prefix, LayerNorm.gamma/beta, pre-training heads) to the same model', async () => {
    const spec = CASES['bert-grad']!;
    const notices: string[] = [];
    const legacy = await loadBert(folder('../../../../tooling/reference/fixtures/bert-legacy/'), { onNotice: (m) => notices.push(m) });
    const report = await compareBackends(() => {
      const out = legacy.forward({ inputIds: fixtureRows(spec.inputs, 'input_ids'), attentionMask: fixtureRows(spec.inputs, 'attention_mask'), tokenTypeIds: fixtureRows(spec.inputs, 'token_type_ids') });
      return { last_hidden_state: out.lastHiddenState, pooler_output: out.poolerOutput };
    }, { backends: BACKENDS, reference: { last_hidden_state: fixtureValues(specOf(spec.outputs, 'last_hidden_state')), pooler_output: fixtureValues(specOf(spec.outputs, 'pooler_output')) } });
    table.add('bert-legacy (values)', report);
    for (const { backend, outputs } of report.results) for (const o of outputs) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(backend === 'webgl' ? 1e-3 : 1e-5);
    expect(notices).toEqual([expect.stringMatching(/^loadBert: skipped 7 tensors of heads the encoder does not have \(cls\.predictions\.bias, /)]);
    legacy.dispose();
  }, 120_000);
});
