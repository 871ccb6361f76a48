import fc from 'fast-check';
import { tensor, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, it } from 'vitest';
import { MultiHeadAttention } from '@attnkit/attention';
import { useBackend } from '@attnkit/backends';
import { writeSafetensors } from '@attnkit/hub';
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from '../fuzz-budget.js';
import { withoutLeak } from './no-leak.js';
import { isTypedError } from './typed-error.js';

beforeAll(() => useBackend('cpu'));

/** Even with 10 000 bad keys the message must stay readable. */
const MAX_MESSAGE = 2000;

/** What a stored tensor holds: the right shape (some values NaN), another shape, or something that is not a tensor. */
type Stored = { readonly shape: 'right' | readonly number[]; readonly seed: number; readonly nan: boolean } | { readonly other: unknown };

interface Case {
  readonly embedDim: number;
  readonly keyDim: number;
  readonly valueDim: number;
  readonly fused: boolean;
  readonly bias: boolean;
  readonly numHeads: unknown;
  readonly prefix: string | undefined;
  /** One per expected weight, in the order of `expectedShapes`; null = missing. */
  readonly weights: ReadonlyArray<Stored | null>;
  /** Keys added to the state dict: near-misses of the real names, unprefixed copies (`X` next to `prefix.X`), internals. */
  readonly extra: ReadonlyArray<readonly [string, Stored]>;
  /** How many generated bad keys (`encoder.layer.N.bias_k`) are added: mostly none, 1 case in 100 from 1 000 to 10 000. */
  readonly manyBad: number;
  readonly asBytes: boolean;
}

/** The weights nn.MultiheadAttention has for this layout (the names attnkit reads). */
function expectedShapes(c: Pick<Case, 'embedDim' | 'keyDim' | 'valueDim' | 'fused' | 'bias'>): Array<[string, number[]]> {
  const e = c.embedDim;
  return [
    ...(c.fused ? [['in_proj_weight', [3 * e, e]] as [string, number[]]] : [['q_proj_weight', [e, e]], ['k_proj_weight', [e, c.keyDim]], ['v_proj_weight', [e, c.valueDim]]] as Array<[string, number[]]>),
    ...(c.bias ? [['in_proj_bias', [3 * e]] as [string, number[]]] : []),
    ['out_proj.weight', [e, e]],
    ...(c.bias ? [['out_proj.bias', [e]] as [string, number[]]] : []),
  ];
}

const stored: fc.Arbitrary<Stored> = fc.oneof(
  { arbitrary: fc.record({ shape: fc.constant('right' as const), seed: fc.integer(), nan: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }) }), weight: 30 },
  { arbitrary: fc.record({ shape: fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 3 }), seed: fc.integer(), nan: fc.constant(false) }), weight: 1 },
  { arbitrary: fc.record({ other: fc.anything() }), weight: 1 },
);

const NAMES = ['in_proj_weight', 'in_proj_bias', 'q_proj_weight', 'k_proj_weight', 'v_proj_weight', 'out_proj.weight', 'out_proj.bias'];
const nearName = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).map((n) => n.replace('proj', 'prj')),
  fc.constantFrom('bias_k', 'bias_v', 'out_proj', 'out_proj.weight.0', 'in_proj_weight ', 'OUT_PROJ.WEIGHT', '__proto__', 'constructor', ''),
  fc.string({ maxLength: 10 }),
);

const cases: fc.Arbitrary<Case> = fc
  .record({ embedDim: fc.integer({ min: 1, max: 6 }), keyDim: fc.integer({ min: 1, max: 6 }), valueDim: fc.integer({ min: 1, max: 6 }), fused: fc.boolean(), bias: fc.boolean() })
  .chain((layer) => {
    const count = expectedShapes(layer).length;
    const divisors = Array.from({ length: layer.embedDim }, (_, i) => i + 1).filter((h) => layer.embedDim % h === 0);
    return fc.record({
      embedDim: fc.constant(layer.embedDim),
      fused: fc.constant(layer.fused),
      bias: fc.constant(layer.bias),
      keyDim: fc.constant(layer.fused ? layer.embedDim : layer.keyDim),
      valueDim: fc.constant(layer.fused ? layer.embedDim : layer.valueDim),
      numHeads: fc.oneof({ arbitrary: fc.constantFrom(...divisors), weight: 12 }, { arbitrary: fc.constantFrom<unknown>(0, 5, 7, -1, 1.5, Number.NaN, '2', undefined), weight: 1 }),
      prefix: fc.constantFrom(undefined, '', 'self_attn.', 'layers.0.self_attn.', 'bert.'),
      weights: fc.array(fc.oneof({ arbitrary: stored, weight: 12 }, { arbitrary: fc.constant(null), weight: 1 }), { minLength: count, maxLength: count }),
      extra: fc.oneof({ arbitrary: fc.constant([]), weight: 4 }, { arbitrary: fc.array(fc.tuple(fc.oneof(nearName, nearName.map((n) => `self_attn.${n}`)), stored), { maxLength: 4 }), weight: 1 }),
      manyBad: fc.oneof({ arbitrary: fc.constant(0), weight: 99 }, { arbitrary: fc.integer({ min: 1000, max: 10_000 }), weight: 1 }),
      asBytes: fc.boolean(),
    });
  });

function valuesFor(s: Stored, shape: readonly number[]): Float32Array | undefined {
  if ('other' in s) return undefined;
  const dims = s.shape === 'right' ? shape : s.shape;
  const values = Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(s.seed + i));
  if (s.nan && values.length > 0) values[0] = Number.NaN;
  return values;
}

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => Object.is(v, b[i]));
}

describe(`MultiHeadAttention.fromTorchStateDict fuzzing (fast-check, ${FUZZ_RUNS} cases)`, () => {
  it('random PyTorch state dicts (records and safetensors bytes): every prefixed key loaded exactly, or a typed error of at most 2 000 characters', () => {
    fc.assert(
      fc.property(cases, (c) =>
        withoutLeak(() => {
          const prefix = c.prefix ?? '';
          const entries = new Map<string, { shape: number[]; values: Float32Array | undefined; other?: unknown }>();
          expectedShapes(c).forEach(([name, shape], i) => {
            const s = c.weights[i];
            if (s === null || s === undefined) return;
            entries.set(`${prefix}${name}`, 'other' in s ? { shape, values: undefined, other: s.other } : { shape: s.shape === 'right' ? shape : [...s.shape], values: valuesFor(s, shape) });
          });
          for (const [name, s] of c.extra) if (!entries.has(name)) entries.set(name, 'other' in s ? { shape: [], values: undefined, other: s.other } : { shape: s.shape === 'right' ? [2] : [...s.shape], values: valuesFor(s, [2]) });
          for (let i = 0; i < c.manyBad; i++) entries.set(`${prefix}encoder.layer.${i}.bias_k`, { shape: [1], values: Float32Array.of(i) });
          const made: Tensor[] = [];
          let source: Record<string, unknown> | Uint8Array;
          if (c.asBytes && [...entries.values()].every((e) => e.values !== undefined) && !entries.has('') && !entries.has('__metadata__')) {
            source = writeSafetensors(Object.fromEntries([...entries].map(([name, e]) => [name, { shape: e.shape, values: e.values! }])));
          } else {
            source = Object.create(null) as Record<string, unknown>;
            for (const [name, e] of entries) {
              const value = e.values === undefined ? e.other : tensor(e.values, e.shape, 'float32');
              if (e.values !== undefined) made.push(value as Tensor);
              Object.defineProperty(source, name, { value, enumerable: true }); // '__proto__' an own key
            }
          }
          let layer: MultiHeadAttention;
          try {
            layer = MultiHeadAttention.fromTorchStateDict(source as never, { numHeads: c.numHeads as number, ...(c.prefix === undefined ? {} : { prefix: c.prefix }) });
          } catch (error) {
            return isTypedError(error, MAX_MESSAGE);
          } finally {
            made.forEach((t) => t.dispose());
          }
          const loaded = layer.stateDict();
          const prefixed = [...entries.keys()].filter((name) => name.startsWith(prefix));
          const exact = [...loaded].every(([name, variable]) => {
            const e = entries.get(`${prefix}${name}`);
            return e !== undefined && e.values !== undefined && e.shape.join() === variable.shape.join() && same(variable.dataSync(), e.values);
          });
          layer.dispose();
          return exact && prefixed.length === loaded.size; // no prefixed key dropped silently
        }),
      ),
      { numRuns: FUZZ_RUNS, seed: 61 },
    );
  }, FUZZ_TIMEOUT_MS);
});
