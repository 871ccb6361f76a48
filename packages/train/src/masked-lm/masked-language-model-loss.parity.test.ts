import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variableGrads, type Scalar } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { loadBertForMaskedLM } from '@attnkit/models';
import { ParityTable, fixtureValues, scaledErrors, specOf, type FixtureFile, servedPath, fixtureRows } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/masked-lm.json' with { type: 'json' };
import { maskedLanguageModelLoss } from './masked-language-model-loss.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu.
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale (loss and gradients), against float64 transformers. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const CASES = (fixtures as FixtureFile).cases;
const table = new ParityTable('masked-LM loss and gradients vs float64 transformers.BertForMaskedLM(labels=...)');

/** A folder next to the sources: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  return servedPath(new URL(relative, import.meta.url));
}
beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

describe('maskedLanguageModelLoss through BertForMaskedLM equals transformers\' loss, in value and gradients', () => {
  const cases = ['loss', 'loss-one'].flatMap((name) => [[name, 'all positions'], [name, 'labelled positions only']] as const);
  it.each(cases)('%s, %s', async (name, how) => {
    const spec = CASES[name]!;
    const model = await loadBertForMaskedLM(folder('../../../../tooling/reference/fixtures/bert-mlm/')); // a fresh model per case, as the other parity tests: weights moved between four backends by one case are not reused by the next
    const inputs = { inputIds: fixtureRows(spec.inputs, 'input_ids'), attentionMask: fixtureRows(spec.inputs, 'attention_mask'), tokenTypeIds: fixtureRows(spec.inputs, 'token_type_ids') };
    const labels = fixtureRows(spec.inputs, 'labels');
    const flat = labels.flat();
    const positions = flat.flatMap((label, i) => (label === -100 ? [] : [i]));
    const reference = Object.fromEntries(Object.entries(spec.outputs).map(([key, t]) => [key, fixtureValues(t)]));
    const named = new Map(model.namedParameters());
    const wanted = Object.keys(reference).filter((k) => k.startsWith('grad.')).map((k) => k.slice('grad.'.length));
    const report = await compareBackends(() => {
      const { value, grads } = variableGrads(() => (how === 'all positions'
        ? maskedLanguageModelLoss(model.forward(inputs).logits, labels)
        : maskedLanguageModelLoss(model.forward(inputs, { positions }).logits, positions.map((p) => flat[p]!))) as Scalar, wanted.map((k) => named.get(k)!));
      const out = { loss: value, ...Object.fromEntries(wanted.map((k) => [`grad.${k}`, grads[named.get(k)!.name]!])) };
      for (const [key, g] of Object.entries(grads)) if (!wanted.some((k) => named.get(k)!.name === key)) g.dispose();
      return out;
    }, { backends: BACKENDS, reference });
    table.add(`${name} (${how})`, report);
    for (const [backend, output, error] of scaledErrors(report, reference)) expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
    model.dispose();
  }, 60_000);
});
