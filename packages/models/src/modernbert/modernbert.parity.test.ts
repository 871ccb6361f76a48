import { concat, memory, reshape, slice, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, leaksOf, servedPath } from '@attnkit/test-utils';
import fixture from '@attnkit/reference/fixtures/modernbert.json' with { type: 'json' };
import { loadSequenceClassifier } from '../classification/load-sequence-classifier.js';
import { loadEncoder } from '../load/load-encoder.js';
import { ModernBertForMaskedLM } from './modernbert-for-masked-lm.js';
import { ModernBertForSequenceClassification } from './modernbert-for-sequence-classification.js';
import { loadModernBertForMaskedLM } from './load-modernbert-for-masked-lm.js';
import { ModernBertModel } from './modernbert-model.js';

// ModernBERT against transformers 5.17's ModernBertModel and ModernBertForSequenceClassification
// (float64, sdpa), tiny random folders saved by save_pretrained (tooling/reference/make_modernbert_fixtures.py):
// 4 layers (global, sliding, global, sliding), a window of |t - s| <= 2 at length 12, a right-padded batch.
// The references hold the real tokens only (what a padded position holds is the implementation's business).
const BACKENDS = await availableBackends();
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const table = new ParityTable(`ModernBERT vs transformers, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);
const { encoder, classifiers, masked_lm: maskedLM } = fixture;
const inputs = { inputIds: encoder.inputs.input_ids, attentionMask: encoder.inputs.attention_mask };

function folder(relative: string): string {
  const here = import.meta.url;
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}

/** `hidden [B, T, E]` at the real tokens of each row, concatenated: `[Σ lengths, E]`. */
function realTokens(hidden: Tensor): Tensor {
  return concat(encoder.lengths.map((length, b) => reshape(slice(hidden, [b, 0, 0], [1, length, -1]), [length, -1])));
}

function expectWithin(report: Awaited<ReturnType<typeof compareBackends>>): void {
  for (const { backend, outputs } of report.results) {
    for (const o of outputs) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(TOLERANCE[backend] as number);
  }
}

// each test loads its own model: compareBackends leaves the weights on the last backend (WebGPU in Chromium),
// and a synchronous read of them there (dataSync in the cpu tests below) loses the WebGPU device
const loadModel = async () => (await loadEncoder(folder(encoder.folder))) as ModernBertModel;
beforeAll(() => useBackend('cpu'));
afterAll(() => table.print());

describe('ModernBertModel equals transformers', () => {
  it('loads the folder strictly as a ModernBertModel with both layer types', async () => {
    const model = await loadModel();
    expect(model).toBeInstanceOf(ModernBertModel);
    expect(model.config.layerTypes).toEqual(['full_attention', 'sliding_attention', 'full_attention', 'sliding_attention']);
    expect(model.layers.at(0).attnNorm).toBeUndefined();
    expect(encoder.lengths).toEqual([12, 7]);
    model.dispose();
  });

  it('last_hidden_state and hidden_states at the real tokens, on every backend, leaking nothing', async () => {
    const model = await loadModel();
    const before = memory().numTensors;
    const out = model.forward({ ...inputs, outputHiddenStates: true });
    expect(out.hiddenStates).toHaveLength(encoder.hidden_states.length);
    expect(out.hiddenStates?.at(-1)).toBe(out.lastHiddenState);
    out.hiddenStates?.forEach((t) => t.dispose());
    expect(memory().numTensors, 'tensors left by forward').toBe(before);
    const report = await compareBackends(() => {
      const { lastHiddenState, hiddenStates = [] } = model.forward({ ...inputs, outputHiddenStates: true });
      return { lastHiddenState: realTokens(lastHiddenState), ...Object.fromEntries(hiddenStates.slice(0, -1).map((h, i) => [`hiddenStates[${i}]`, realTokens(h)])) };
    }, {
      backends: BACKENDS,
      reference: {
        lastHiddenState: encoder.last_hidden_state.flat(2),
        ...Object.fromEntries(encoder.hidden_states.slice(0, -1).map((h, i) => [`hiddenStates[${i}]`, h.flat(2)])),
      },
    });
    table.add('ModernBertModel', report);
    expectWithin(report);
    model.dispose();
  }, 60_000);

  it('gives each row, padded, what it gives unpadded', async () => {
    const model = await loadModel();
    const padded = model.forward(inputs).lastHiddenState;
    for (const [b, ids] of encoder.singles.entries()) {
      const alone = model.forward({ inputIds: [ids] }).lastHiddenState; // [1, length, E]
      const row = slice(padded, [b, 0, 0], [1, ids.length, -1]);
      const [got, want] = [row.dataSync(), alone.dataSync()];
      let diff = 0;
      for (let i = 0; i < want.length; i++) diff = Math.max(diff, Math.abs((got[i] as number) - (want[i] as number)));
      expect(diff, `row ${b}`).toBeLessThanOrEqual(1e-5);
      [alone, row].forEach((t) => t.dispose());
    }
    padded.dispose();
    model.dispose();
  });

  it('returns the attention weights of both layer types: the sliding ones are zero outside the window', async () => {
    const model = await loadModel();
    const leaks = await leaksOf(() => {
      const out = model.forward({ ...inputs, outputAttentions: true });
      expect(out.attentions).toHaveLength(4);
      const sliding = out.attentions![1]!.arraySync() as number[][][][]; // [B, H, T, T]
      const global = out.attentions![0]!.arraySync() as number[][][][];
      expect(sliding[0]![0]![0]![3]).toBe(0); // |0 - 3| > 2
      expect(sliding[0]![0]![5]![3]).toBeGreaterThan(0);
      expect(global[0]![0]![0]![11]).toBeGreaterThan(0);
      expect(global[1]![0]![0]![8]).toBe(0); // a padded key
      [out.lastHiddenState, ...out.attentions!].forEach((t) => t.dispose());
    });
    expect(leaks.tensors).toBe(0);
    model.dispose();
  });
});

describe('ModernBertForSequenceClassification equals transformers (cls and mean pooling)', () => {
  it('covers both poolings', () => expect(Object.values(classifiers).map((c) => c.pooling).sort()).toEqual(['cls', 'mean']));

  for (const [name, reference] of Object.entries(classifiers)) {
    it(`${name}: logits [B, num_labels] on every backend, leaking nothing`, async () => {
      const classifier = await loadSequenceClassifier(folder(reference.folder));
      expect(classifier).toBeInstanceOf(ModernBertForSequenceClassification);
      expect(classifier.config.id2label[0]).toBe(`label_${name}_0`);
      const leaks = await leaksOf(() => classifier.forward(inputs).logits.dispose());
      expect(leaks.tensors).toBe(0);
      const report = await compareBackends(() => ({ logits: classifier.forward(inputs).logits }), { backends: BACKENDS, reference: { logits: reference.logits.flat() } });
      table.add(`ModernBertForSequenceClassification (${reference.pooling})`, report);
      expectWithin(report);
      classifier.dispose();
    }, 60_000);
  }
});

describe('ModernBertForMaskedLM equals transformers (decoder tied to the token embeddings)', () => {
  it('logits [B, T, V] at the real tokens on every backend, leaking nothing', async () => {
    const mlm = await loadModernBertForMaskedLM(folder(maskedLM.folder));
    expect(mlm).toBeInstanceOf(ModernBertForMaskedLM);
    expect(mlm.namedParameters().map(([name]) => name).filter((name) => !name.startsWith('model.'))).toEqual(['head.dense.weight', 'head.norm.weight', 'decoder.bias']);
    const leaks = await leaksOf(() => mlm.forward(inputs).logits.dispose());
    expect(leaks.tensors).toBe(0);
    const report = await compareBackends(() => ({ logits: realTokens(mlm.forward(inputs).logits) }), { backends: BACKENDS, reference: { logits: maskedLM.logits.flat(2) } });
    table.add('ModernBertForMaskedLM', report);
    expectWithin(report);
    mlm.dispose();
  }, 120_000);
});
