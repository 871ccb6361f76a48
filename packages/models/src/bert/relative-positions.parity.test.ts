import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, servedPath } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/relative-roformer.json' with { type: 'json' };
import { loadEncoder } from '../load/load-encoder.js';

// BERT, RoBERTa and ELECTRA folders with position_embedding_type relative_key / relative_key_query
// against transformers 4.57.6 (float64), the last release that builds them: transformers 5 reads these
// folders as absolute BERT (tooling/reference/make_relative_roformer_fixtures.py records how far off).
interface Case {
  readonly inputs: { input_ids: number[][]; attention_mask: number[][]; token_type_ids?: number[][] };
  readonly last_hidden_state: number[][][];
  readonly pooler_output?: number[][];
}
interface Fixture {
  readonly folder: string;
  readonly model_class: string;
  readonly position_embedding_type?: string;
  readonly checkpoint_keys: string[];
  readonly cases: Record<string, Case>;
}
const RELATIVE = Object.entries(fixtures as unknown as Record<string, Fixture>).filter(([, f]) => f.position_embedding_type !== undefined);
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const table = new ParityTable(`relative_key(_query) encoders vs transformers 4.57, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

function folder(relative: string): string {
  const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern as an asset glob
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}

beforeAll(() => useBackend('cpu'));

describe('relative_key and relative_key_query encoders equal transformers 4.57 (last_hidden_state, pooler_output)', () => {
  it('has the four relative fixtures', () => {
    expect(RELATIVE.map(([name]) => name)).toEqual(['bert-relative-key', 'bert-relative-key-query', 'roberta-relative-key-query', 'electra-relative-key']);
  });

  for (const [name, fixture] of RELATIVE) {
    it(`${name}: ${fixture.model_class} (${fixture.position_embedding_type})`, async () => {
      const model = await loadEncoder(folder(fixture.folder));
      expect(model.constructor.name).toBe(fixture.model_class);
      expect(model.config.positionEmbeddingType).toBe(fixture.position_embedding_type);
      const keys = model.namedParameters().map(([key]) => key);
      expect(keys.filter((key) => key.includes('distance_embedding'))).toEqual(['encoder.layer.0.attention.self.distance_embedding.weight', 'encoder.layer.1.attention.self.distance_embedding.weight']);
      expect(keys.sort()).toEqual(fixture.checkpoint_keys.filter((key) => !key.startsWith('pooler.') || keys.includes(key)).sort());
      expect(Object.keys(fixture.cases)).toEqual(['batch', 'longest']);
      const inputs = Object.fromEntries(Object.entries(fixture.cases).map(([label, { inputs: i }]) => [label, { inputIds: i.input_ids, attentionMask: i.attention_mask, ...(i.token_type_ids === undefined ? {} : { tokenTypeIds: i.token_type_ids }) }]));
      for (const one of Object.values(inputs)) {
        const before = memory().numTensors;
        const out = model.forward(one);
        out.lastHiddenState.dispose();
        out.poolerOutput?.dispose();
        expect(memory().numTensors, 'tensors left by forward').toBe(before);
      }
      // both cases in one comparison: the model's weights move between backends once
      const report = await compareBackends(() => Object.fromEntries(Object.entries(inputs).flatMap(([label, one]) => {
        const { lastHiddenState, poolerOutput } = model.forward(one);
        return [[`${label} lastHiddenState`, lastHiddenState], ...(poolerOutput === undefined ? [] : [[`${label} poolerOutput`, poolerOutput]])];
      })), {
        backends: BACKENDS,
        reference: Object.fromEntries(Object.entries(fixture.cases).flatMap(([label, c]) => [[`${label} lastHiddenState`, c.last_hidden_state.flat(2)], ...(c.pooler_output === undefined ? [] : [[`${label} poolerOutput`, c.pooler_output.flat()]])])),
      });
      table.add(name, report);
      for (const { backend, outputs } of report.results) {
        for (const o of outputs) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(TOLERANCE[backend as keyof typeof TOLERANCE]);
      }
      model.dispose();
    }, 60_000);
  }
});

afterAll(() => table.print());
