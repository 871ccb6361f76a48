import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureValues, specOf, type FixtureFile, servedPath } from '@attnkit/test-utils';
import bertFixtures from '@attnkit/reference/fixtures/bert.json' with { type: 'json' };
import embeddedFixtures from '@attnkit/reference/fixtures/embedded-bert.json' with { type: 'json' };
import type { BertModel } from './bert-model.js';
import { loadBert } from './load-bert.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
const HIDDEN = { cpu: 1e-4, wasm: 1e-4, webgl: 1e-3, webgpu: 1e-4 };
const POOLER = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-5 };
const table = new ParityTable(`BertModel vs the PyTorch reference, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

/** A folder next to the sources: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  return servedPath(new URL(relative, import.meta.url));
}

const models: Array<[string, string, FixtureFile['cases'][string]]> = [
  ['bert-a (E32 H4 L2, bert. prefix, cls head, T = max positions 16)', folder('../../../../tooling/reference/fixtures/bert-a/'), (bertFixtures as FixtureFile).cases['bert-a']!],
  ['bert-b (E24 H3 L3, 3 token types, T = max positions 12)', folder('../../../../tooling/reference/fixtures/bert-b/'), (bertFixtures as FixtureFile).cases['bert-b']!],
  ['attnkit-tiny-bert: hello world', folder('../../assets/attnkit-tiny-bert/'), (embeddedFixtures as FixtureFile).cases['hello world']!],
  ['attnkit-tiny-bert: pair with padding', folder('../../assets/attnkit-tiny-bert/'), (embeddedFixtures as FixtureFile).cases['pair with padding']!],
];

beforeAll(() => useBackend('cpu'));

describe('BertModel equals the PyTorch BERT reference (HF modeling_bert layout)', () => {
  for (const [name, path, spec] of models) {
    it(name, async () => {
      const notices: string[] = [];
      const model: BertModel = await loadBert(path, { onNotice: (m) => notices.push(m) });
      const ids = (n: string) => {
        const s = specOf(spec.inputs, n);
        const values = fixtureValues(s);
        return Array.from({ length: s.shape[0]! }, (_, b) => values.slice(b * s.shape[1]!, (b + 1) * s.shape[1]!));
      };
      const inputs = { inputIds: ids('input_ids'), attentionMask: ids('attention_mask'), tokenTypeIds: ids('token_type_ids') };
      const detailed = spec.outputs['attentions_0'] !== undefined;
      const report = await compareBackends(() => {
        const out = model.forward({ ...inputs, outputAttentions: detailed, outputHiddenStates: detailed });
        return {
          lastHiddenState: out.lastHiddenState,
          poolerOutput: out.poolerOutput,
          ...(detailed ? { hiddenStates1: out.hiddenStates![1]!, attentions0: out.attentions![0]! } : {}),
        }; // the other hidden states and attentions are disposed by compareBackends' tidy
      }, {
        backends: BACKENDS,
        reference: {
          lastHiddenState: fixtureValues(specOf(spec.outputs, 'last_hidden_state')),
          poolerOutput: fixtureValues(specOf(spec.outputs, 'pooler_output')),
          ...(detailed ? { hiddenStates1: fixtureValues(specOf(spec.outputs, 'hidden_states_1')), attentions0: fixtureValues(specOf(spec.outputs, 'attentions_0')) } : {}),
        },
      });
      table.add(name, report);
      for (const { backend, outputs } of report.results) {
        const tolerance = (o: string) => (o === 'poolerOutput' ? POOLER : HIDDEN)[backend as keyof typeof HIDDEN];
        for (const o of outputs) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(tolerance(o.output));
      }
      if (name.startsWith('bert-a')) expect(notices).toEqual(['loadBert: skipped 2 tensors of heads the encoder does not have (cls.predictions.bias, cls.predictions.transform.dense.weight); it does not use them.']);
      model.dispose();
    }, 60_000);
  }
});

afterAll(() => table.print());
