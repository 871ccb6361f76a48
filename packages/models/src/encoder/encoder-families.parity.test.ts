import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, servedPath } from '@attnkit/test-utils';
import families from '@attnkit/reference/fixtures/families.json' with { type: 'json' };
import { loadEncoder } from '../load/load-encoder.js';

// Every family's encoder against transformers' own model class (float64), random weights saved by
// save_pretrained (tooling/reference/make_family_fixtures.py). Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu.
interface FamilyFixture {
  readonly folder: string;
  readonly model_type: string;
  readonly model_class: string;
  readonly inputs: { input_ids: number[][]; attention_mask: number[][]; token_type_ids?: number[][] };
  readonly last_hidden_state: number[][][];
  readonly pooler_output?: number[][];
}
const fixtures = families as unknown as Record<string, FamilyFixture>;
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const table = new ParityTable(`encoder families vs transformers, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

/** A fixture folder: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern as an asset glob
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}

beforeAll(() => useBackend('cpu'));

describe('every encoder family equals its transformers model (last_hidden_state, pooler_output)', () => {
  for (const [name, fixture] of Object.entries(fixtures)) {
    it(`${name}: ${fixture.model_class} (model_type ${fixture.model_type})`, async () => {
      const model = await loadEncoder(folder(fixture.folder));
      expect(model.constructor.name).toBe(fixture.model_class === 'XLMRobertaModel' ? 'RobertaModel' : fixture.model_class);
      const { input_ids: inputIds, attention_mask: attentionMask, token_type_ids: tokenTypeIds } = fixture.inputs;
      const inputs = { inputIds, attentionMask, ...(tokenTypeIds === undefined ? {} : { tokenTypeIds }) };
      const before = memory().numTensors;
      const out = model.forward(inputs);
      expect(out.poolerOutput === undefined).toBe(fixture.pooler_output === undefined);
      out.lastHiddenState.dispose();
      out.poolerOutput?.dispose();
      expect(memory().numTensors, 'tensors left by forward').toBe(before);
      const report = await compareBackends(() => {
        const { lastHiddenState, poolerOutput } = model.forward(inputs);
        return { lastHiddenState, ...(poolerOutput === undefined ? {} : { poolerOutput }) };
      }, {
        backends: BACKENDS,
        reference: {
          lastHiddenState: fixture.last_hidden_state.flat(2),
          ...(fixture.pooler_output === undefined ? {} : { poolerOutput: fixture.pooler_output.flat() }),
        },
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
