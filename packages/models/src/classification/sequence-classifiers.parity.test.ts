import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, leaksOf, servedPath } from '@attnkit/test-utils';
import classifiers from '@attnkit/reference/fixtures/rerank/classifiers.json' with { type: 'json' };
import { loadSequenceClassifier } from './load-sequence-classifier.js';

// Every family's …ForSequenceClassification against transformers 5.17's (float64), tiny random
// classifiers saved by save_pretrained (tooling/reference/make_rerank_fixtures.py). Node: cpu and
// wasm; Chromium: cpu, wasm, webgl and webgpu.
interface ClassifierFixture {
  readonly folder: string;
  readonly model_type: string;
  readonly model_class: string;
  readonly num_labels: number;
  readonly id2label: Record<string, string>;
  readonly label2id: Record<string, number>;
  readonly problem_type: string | null;
  readonly checkpoint_keys: string[];
  readonly cases: Record<string, { inputs: { input_ids: number[][]; attention_mask: number[][]; token_type_ids?: number[][] }; logits: number[][] }>;
}
const FIXTURES = classifiers as unknown as Record<string, ClassifierFixture>;
const BACKENDS = await availableBackends();
/** Max absolute difference of the logits from float64 transformers. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const CLASS_OF: Record<string, string> = { XLMRobertaForSequenceClassification: 'RobertaForSequenceClassification' }; // one class, as RobertaModel serves xlm-roberta
const table = new ParityTable(`sequence classifiers vs transformers (single / pairs), ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);

function folder(relative: string): string {
  const here = import.meta.url;
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}

beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

describe('every …ForSequenceClassification equals transformers (logits [B, num_labels])', () => {
  it('covers the six model types', () => {
    expect(Object.values(FIXTURES).map((f) => f.model_type).sort()).toEqual(['bert', 'distilbert', 'electra', 'mpnet', 'roberta', 'xlm-roberta']);
  });

  for (const [name, fixture] of Object.entries(FIXTURES)) {
    it(`${name}: ${fixture.model_class}`, async () => {
      const model = await loadSequenceClassifier(folder(fixture.folder));
      expect(model.constructor.name).toBe(CLASS_OF[fixture.model_class] ?? fixture.model_class);
      expect(model.namedParameters().map(([key]) => key).sort()).toEqual([...fixture.checkpoint_keys].sort()); // transformers' tree, no pooler where it has none
      expect(model.initialisedKeys).toEqual([]);
      expect([model.config.numLabels, model.config.id2label, Object.fromEntries(model.config.label2id), model.config.problemType ?? null]).toEqual([fixture.num_labels, Object.values(fixture.id2label), fixture.label2id, fixture.problem_type]);
      expect(Object.keys(fixture.cases)).toEqual(['single', 'pairs']);
      const inputs = Object.fromEntries(Object.entries(fixture.cases).map(([label, { inputs: i }]) => [label, { inputIds: i.input_ids, attentionMask: i.attention_mask, ...(i.token_type_ids === undefined ? {} : { tokenTypeIds: i.token_type_ids }) }]));
      expect(await leaksOf(() => model.forward(inputs['pairs']!).logits.dispose())).toEqual({ tensors: 0, bytes: 0 }); // before the weights visit the GPU backends: reading them back from WebGPU is slow and breaks later WebGL programs in headless Chromium
      // one pass over the backends for both cases: the weights move to each backend once, as in the encoder families' test
      const report = await compareBackends(() => ({ single: model.forward(inputs['single']!).logits, pairs: model.forward(inputs['pairs']!).logits }), {
        backends: BACKENDS,
        reference: { single: fixture.cases['single']!.logits.flat(), pairs: fixture.cases['pairs']!.logits.flat() },
      });
      table.add(name, report);
      for (const { backend, outputs } of report.results) {
        for (const o of outputs) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
      }
      model.dispose();
    }, 60_000);
  }
});
