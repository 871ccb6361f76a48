import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureValues, leaksOf, scaledErrors, specOf, type FixtureFile, servedPath, fixtureRows } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/masked-lm.json' with { type: 'json' };
import { loadBertForMaskedLM } from './load-bert-for-masked-lm.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
/** Max error relative to the reference's scale, against float64 transformers.BertForMaskedLM. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const CASES = (fixtures as FixtureFile).cases;
const table = new ParityTable(`BertForMaskedLM logits vs float64 transformers.BertForMaskedLM, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

/** A folder next to the sources: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  return servedPath(new URL(relative, import.meta.url));
}
const MLM = '../../../../tooling/reference/fixtures/bert-mlm/';

beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

describe('BertForMaskedLM equals transformers.BertForMaskedLM', () => {
  const spec = CASES['logits']!;
  const inputs = { inputIds: fixtureRows(spec.inputs, 'input_ids'), attentionMask: fixtureRows(spec.inputs, 'attention_mask'), tokenTypeIds: fixtureRows(spec.inputs, 'token_type_ids') };
  const reference = fixtureValues(specOf(spec.outputs, 'logits'));

  it('logits [B, T, V] of a save_pretrained folder (tied decoder, no pooler) on every backend', async () => {
    const notices: string[] = [];
    const model = await loadBertForMaskedLM(folder(MLM), { onNotice: (m) => notices.push(m) });
    expect(model.initialisedKeys).toEqual(['bert.pooler.dense.weight', 'bert.pooler.dense.bias']); // the head came from the file
    expect(model.maskedLMParameters().map(([k]) => k).some((k) => k.startsWith('bert.pooler'))).toBe(false);
    const report = await compareBackends(() => ({ logits: model.forward(inputs).logits }), { backends: BACKENDS, reference: { logits: reference } });
    table.add('logits', report);
    for (const [backend, output, error] of scaledErrors(report, { logits: reference })) expect(error, `${backend} ${output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
    expect(await leaksOf(() => model.forward(inputs).logits.dispose())).toEqual({ tensors: 0, bytes: 0 });
    model.dispose();
  }, 60_000);

  it('positions select rows of the same logits: [N, V]', async () => {
    const model = await loadBertForMaskedLM(folder(MLM));
    const [, length = 0] = specOf(spec.inputs, 'input_ids').shape;
    const vocab = model.config.vocabSize;
    const positions = [2, 5, length + 1, length + 3];
    const { logits } = model.forward(inputs, { positions });
    expect(logits.shape).toEqual([4, vocab]);
    const got = await logits.data();
    positions.forEach((p, i) => {
      const want = reference.slice(p * vocab, (p + 1) * vocab);
      const worst = Math.max(...want.map((w, j) => Math.abs(w - got[i * vocab + j]!)));
      expect(worst).toBeLessThan(1e-4);
    });
    logits.dispose();
    model.dispose();
  });
});
