import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, maxDifference, useBackend } from '@attnkit/backends';
import { ParityTable, servedPath } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/relative-roformer.json' with { type: 'json' };
import { loadSequenceClassifier } from '../classification/load-sequence-classifier.js';
import { loadEncoder } from '../load/load-encoder.js';
import { RoFormerModel } from './roformer-model.js';
import { roformerSinusoidalTable } from './roformer-sinusoidal-positions.js';

// RoFormerModel and RoFormerForSequenceClassification against transformers 5.17 (float64), random
// weights saved by save_pretrained (tooling/reference/make_relative_roformer_fixtures.py): embedding_size
// below hidden_size (embeddings_project), rotary_value, gelu_new and relu heads.
interface Case {
  readonly inputs: { input_ids: number[][]; attention_mask: number[][]; token_type_ids?: number[][] };
  readonly last_hidden_state?: number[][][];
  readonly logits?: number[][];
}
interface Fixture {
  readonly folder: string;
  readonly model_class: string;
  readonly model_type: string;
  readonly rotary_value?: boolean;
  readonly embedding_size?: number;
  readonly checkpoint_keys: string[];
  readonly cases: Record<string, Case>;
}
const ROFORMER = Object.entries(fixtures as unknown as Record<string, Fixture>).filter(([, f]) => f.model_type === 'roformer');
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const table = new ParityTable(`RoFormer vs transformers 5.17, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

function folder(relative: string): string {
  const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern as an asset glob
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}

const inputsOf = ({ inputs: i }: Case) => ({ inputIds: i.input_ids, attentionMask: i.attention_mask, ...(i.token_type_ids === undefined ? {} : { tokenTypeIds: i.token_type_ids }) });

beforeAll(() => useBackend('cpu'));

describe('RoFormer equals transformers (last_hidden_state, logits)', () => {
  it('has the three RoFormer fixtures', () => {
    expect(ROFORMER.map(([name]) => name)).toEqual(['roformer', 'roformer-rotary-value', 'roformer-classifier']);
  });

  for (const [name, fixture] of ROFORMER) {
    it(`${name}: ${fixture.model_class} (rotary_value ${fixture.rotary_value}, embedding_size ${fixture.embedding_size})`, async () => {
      const classifier = fixture.model_class === 'RoFormerForSequenceClassification';
      const model = classifier ? await loadSequenceClassifier(folder(fixture.folder)) : await loadEncoder(folder(fixture.folder));
      expect(model.constructor.name).toBe(fixture.model_class);
      expect(model.namedParameters().map(([key]) => key).sort()).toEqual([...fixture.checkpoint_keys].sort());
      expect(model.initialisedKeys).toEqual([]);
      expect(Object.keys(fixture.cases)).toEqual(['batch', 'longest']);
      const run = (c: Case) => {
        const out = model.forward(inputsOf(c));
        return 'logits' in out ? out.logits : out.lastHiddenState;
      };
      for (const c of Object.values(fixture.cases)) {
        const before = memory().numTensors;
        run(c).dispose();
        expect(memory().numTensors, 'tensors left by forward').toBe(before);
      }
      // both cases in one comparison: the model's weights move between backends once
      const report = await compareBackends(() => Object.fromEntries(Object.entries(fixture.cases).map(([label, c]) => [label, run(c)])), {
        backends: BACKENDS,
        reference: Object.fromEntries(Object.entries(fixture.cases).map(([label, c]) => [label, c.logits === undefined ? c.last_hidden_state!.flat(2) : c.logits.flat()])),
      });
      table.add(name, report);
      for (const { backend, outputs } of report.results) {
        for (const o of outputs) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(TOLERANCE[backend as keyof typeof TOLERANCE]);
      }
      model.dispose();
    }, 60_000);
  }

  it("computes the sinusoidal table transformers stores, and gives it to a checkpoint without one", async () => {
    const [, fixture] = ROFORMER[0]!;
    const model = await loadEncoder(folder(fixture.folder)) as RoFormerModel;
    const stored = await model.encoder.get('embed_positions').weight.data();
    expect(maxDifference(stored, roformerSinusoidalTable(24, 8)).maxAbsDiff).toBeLessThanOrEqual(1e-7);
    const state = new Map(model.stateDict());
    state.delete('encoder.embed_positions.weight');
    const rebuilt = new RoFormerModel(model.config, state);
    expect(rebuilt.initialisedKeys).toEqual([]);
    const c = fixture.cases['batch']!;
    const [a, b] = [model.forward(inputsOf(c)).lastHiddenState, rebuilt.forward(inputsOf(c)).lastHiddenState];
    expect(maxDifference(await a.data(), await b.data()).maxAbsDiff).toBeLessThanOrEqual(1e-6);
    [a, b].forEach((t) => t.dispose());
    [model, rebuilt].forEach((m) => m.dispose());
  });
});

afterAll(() => table.print());
