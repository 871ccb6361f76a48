import fc from 'fast-check';
import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { BertModel, loadEncoder, parseBertConfig, type Encoder } from '@attnkit/models';
import { writeSafetensors } from '@attnkit/hub';
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from '../fuzz-budget.js';
import { isTypedError } from './typed-error.js';

/** Even with 10 000 bad keys the ModelLoadError must stay readable. */
const MAX_MESSAGE = 2000;
/** The smallest BERT: every kind of weight (embeddings, LayerNorm, attention, FFN, pooler), 2-wide. */
const CONFIG = { model_type: 'bert', vocab_size: 5, hidden_size: 2, num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 2, max_position_embeddings: 3, type_vocab_size: 2, hidden_act: 'gelu', layer_norm_eps: 1e-12 };
const POOLER = ['pooler.dense.weight', 'pooler.dense.bias'];

let parameters: Array<[string, number[]]>;
beforeAll(async () => {
  await useBackend('cpu');
  const model = new BertModel(parseBertConfig(CONFIG));
  parameters = model.namedParameters().map(([key, p]) => [key, p.shape]);
  model.dispose();
});

/** How one parameter is stored: its name as given (`X`, `bert.X`, both — two tensors for one weight — or legacy `gamma`/`beta`), missing, mis-shaped, with a NaN. */
interface Stored {
  readonly names: 'plain' | 'prefixed' | 'both' | 'legacy' | 'missing';
  readonly misShaped: boolean;
  readonly nan: boolean;
}
const stored: fc.Arbitrary<Stored> = fc.record({
  names: fc.oneof({ arbitrary: fc.constantFrom('plain' as const, 'prefixed' as const, 'legacy' as const), weight: 60 }, { arbitrary: fc.constantFrom('both' as const, 'missing' as const), weight: 1 }),
  misShaped: fc.oneof({ arbitrary: fc.constant(false), weight: 60 }, { arbitrary: fc.constant(true), weight: 1 }),
  nan: fc.oneof({ arbitrary: fc.constant(false), weight: 30 }, { arbitrary: fc.constant(true), weight: 1 }),
});

/** Extra tensors: heads and buffers a real checkpoint has (skipped, never an error), and names that load into nothing (always an error). */
const HEADS = ['cls.predictions.bias', 'cls.predictions.transform.dense.weight', 'classifier.weight', 'qa_outputs.bias'];
const BUFFERS = ['embeddings.position_ids', 'bert.embeddings.position_ids', 'embeddings.token_type_ids'];
const STRAYS = ['embeddings.word_embedings.weight', 'bert.bert.pooler.dense.bias', 'encoder.layer.1.output.dense.bias', 'Embeddings.LayerNorm.weight', 'roberta.embeddings.word_embeddings.weight', 'encoder.layer.0.attention.self.query.weight.0', '__proto__', 'constructor', 'x'];

interface Case {
  readonly weights: readonly Stored[];
  readonly extra: ReadonlyArray<{ readonly name: string; readonly kind: 'head' | 'buffer' | 'stray' }>;
  readonly manyBad: number;
  /** Every weight mis-shaped, as a checkpoint of another size would be (the longest lists of problems). */
  readonly otherSize: boolean;
  readonly checkFinite: boolean;
}

function storedNames(key: string, names: Stored['names']): string[] {
  const legacy = key.replace(/LayerNorm\.weight$/, 'LayerNorm.gamma').replace(/LayerNorm\.bias$/, 'LayerNorm.beta');
  return { plain: [key], prefixed: [`bert.${key}`], both: [key, `bert.${key}`], legacy: [`bert.${legacy}`], missing: [] }[names];
}

function valuesOf(index: number, size: number, nan: boolean): Float32Array {
  const values = Float32Array.from({ length: size }, (_, i) => Math.sin(index * 31 + i));
  if (nan) values[0] = Number.NaN;
  return values;
}

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => Object.is(v, b[i]));
}

/** Whether the checkpoint is loadable: one tensor of the right shape per weight (or no pooler at all), no stray names, no NaN under checkFinite. */
function loadable(c: Case): boolean {
  const problem = parameters.some(([key], i) => {
    const s = c.weights[i]!;
    if (s.names === 'missing') return !POOLER.includes(key) || parameters.some(([other], j) => POOLER.includes(other) && c.weights[j]!.names !== 'missing');
    return s.names === 'both' || s.misShaped || c.otherSize;
  });
  const nan = c.weights.some((s) => s.nan && s.names !== 'missing');
  return !problem && c.manyBad === 0 && !c.extra.some((e) => e.kind === 'stray') && !(c.checkFinite && nan);
}

describe(`loadEncoder checkpoint fuzzing (fast-check, ${FUZZ_RUNS} cases)`, () => {
  it('random checkpoints (X and bert.X, legacy gamma/beta, missing, mis-shaped, NaN, heads, buffers, strays, up to 10 000 bad keys): loads exactly, or one typed error of at most 2 000 characters', async () => {
    const cases: fc.Arbitrary<Case> = fc.record({
      weights: fc.constant(null).chain(() => fc.array(stored, { minLength: parameters.length, maxLength: parameters.length })),
      extra: fc.array(
        fc.oneof(
          fc.constantFrom(...HEADS).map((name) => ({ name, kind: 'head' as const })),
          fc.constantFrom(...BUFFERS).map((name) => ({ name, kind: 'buffer' as const })),
          fc.constantFrom(...STRAYS).map((name) => ({ name, kind: 'stray' as const })),
        ),
        { maxLength: 3 },
      ),
      manyBad: fc.oneof({ arbitrary: fc.constant(0), weight: 199 }, { arbitrary: fc.integer({ min: 1000, max: 10_000 }), weight: 1 }),
      otherSize: fc.oneof({ arbitrary: fc.constant(false), weight: 49 }, { arbitrary: fc.constant(true), weight: 1 }),
      checkFinite: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const tensors: Record<string, { shape: number[]; values: Float32Array }> = {};
        const expected = new Map<string, Float32Array>();
        parameters.forEach(([key, shape], i) => {
          const s = c.weights[i]!;
          const size = shape.reduce((a, b) => a * b, 1);
          const misShaped = s.misShaped || c.otherSize;
          const values = valuesOf(i, misShaped ? size + 1 : size, s.nan);
          for (const name of storedNames(key, s.names)) tensors[name] = { shape: misShaped ? [size + 1] : shape, values };
          if (s.names !== 'missing') expected.set(key, values);
        });
        for (const { name } of c.extra) if (!Object.hasOwn(tensors, name)) Object.defineProperty(tensors, name, { value: { shape: [1], values: Float32Array.of(1) }, enumerable: true });
        for (let i = 0; i < c.manyBad; i++) tensors[`bert.encoder.layer.${i}.attention.self.${'q'.repeat(i % 60)}.weight`] = { shape: [1], values: Float32Array.of(i) };
        const files = { 'config.json': JSON.stringify(CONFIG), 'model.safetensors': writeSafetensors(tensors) };
        const before = memory().numTensors; // withoutLeak, for an async body
        let model: Encoder;
        try {
          model = await loadEncoder({ files }, { checkFinite: c.checkFinite });
        } catch (error) {
          isTypedError(error, MAX_MESSAGE);
          if (memory().numTensors !== before) throw new Error('a failed load left tensors behind');
          if (loadable(c)) throw new Error(`a loadable checkpoint was refused: ${(error as Error).message}`);
          return true;
        }
        const loaded = (model as unknown as BertModel).namedParameters();
        const exact = loaded.every(([key, p]) => (expected.has(key) ? same(p.dataSync(), expected.get(key)!) : POOLER.includes(key) && model.initialisedKeys.includes(key)));
        model.dispose();
        if (memory().numTensors !== before) throw new Error('a disposed model left tensors behind');
        return loadable(c) && exact;
      }),
      { numRuns: FUZZ_RUNS, seed: 71 },
    );
  }, FUZZ_TIMEOUT_MS);
});
