import fc from 'fast-check';
import { tensor, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, it } from 'vitest';
import { scaledDotProductAttention, type AttentionResult } from '@attnkit/attention';
import { useBackend } from '@attnkit/backends';
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from '../fuzz-budget.js';
import { broadcastValue } from './broadcast.js';
import { withoutLeak } from './no-leak.js';
import { alignedSpec, makeTensor, specValues, tensorSpec, type Sizes, type TensorSpec } from './random-tensor.js';
import { isTypedError } from './typed-error.js';

beforeAll(() => useBackend('cpu'));

/** A size up to 6, now and then 0. */
const size = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 6 }), weight: 20 }, { arbitrary: fc.constant(0), weight: 1 });
const AXES = { query: ['batch', 'heads', 'queryLength', 'headDim'], key: ['batch', 'heads', 'keyLength', 'headDim'], value: ['batch', 'heads', 'keyLength', 'valueDim'] } as const;
/** Mask placements validateMask accepts: [T, S], [B, T, S], [B, H, T, S]; bias: [T, S], [B|1, H|1, T|1, S|1]. */
const MASK_AXES: ReadonlyArray<ReadonlyArray<keyof Sizes>> = [['queryLength', 'keyLength'], ['batch', 'queryLength', 'keyLength'], ['batch', 'heads', 'queryLength', 'keyLength']];
const BIAS_AXES: ReadonlyArray<ReadonlyArray<keyof Sizes>> = [['queryLength', 'keyLength'], ['batch', 'heads', 'queryLength', 'keyLength']];
/** Additive-mask values real biases hold: the lowest float32 (Hugging Face's `finfo.min`) and ±1e9. */
const EXTREMES = [-3.4028234663852886e38, -1e9, 1e9];

interface Case {
  readonly sizes: Sizes & { readonly headDim: number; readonly valueDim: number };
  readonly query: TensorSpec;
  readonly key: TensorSpec;
  readonly value: TensorSpec;
  /** q, k and v values (in [-4, 4)) are scaled by this; scores stay below ~1e14, far from float32 overflow. */
  readonly scale: number;
  readonly mask: TensorSpec | undefined | { readonly other: unknown };
  readonly bias: TensorSpec | undefined | { readonly other: unknown };
  /** Positions of the bias set to an extreme value. */
  readonly extremes: ReadonlyArray<readonly [number, number]>;
  readonly dropout: unknown;
  readonly training: boolean;
}

const cases: fc.Arbitrary<Case> = fc
  .record({ batch: size, heads: size, queryLength: size, keyLength: size, headDim: size, valueDim: size })
  .chain((sizes) => {
    const float = fc.oneof({ arbitrary: fc.constant<TensorSpec['dtype']>('float32'), weight: 20 }, { arbitrary: fc.constantFrom<TensorSpec['dtype']>('int32', 'bool'), weight: 1 });
    const bool = fc.oneof({ arbitrary: fc.constant<TensorSpec['dtype']>('bool'), weight: 20 }, { arbitrary: fc.constantFrom<TensorSpec['dtype']>('int32', 'float32'), weight: 1 });
    const exact = (axes: ReadonlyArray<keyof typeof sizes>) => fc.integer().map((seed): TensorSpec => ({ shape: axes.map((axis) => sizes[axis]), dtype: 'float32', seed, disposed: false }));
    const operand = (axes: ReadonlyArray<keyof typeof sizes>) => fc.oneof({ arbitrary: exact(axes), weight: 40 }, { arbitrary: alignedSpec(sizes, axes, float), weight: 2 }, { arbitrary: tensorSpec(sizes, float), weight: 1 });
    const optional = (spec: fc.Arbitrary<TensorSpec>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: spec, weight: 8 }, { arbitrary: fc.anything().map((other) => ({ other })), weight: 1 });
    return fc.record({
      sizes: fc.constant(sizes),
      query: operand(AXES.query),
      key: operand(AXES.key),
      value: operand(AXES.value),
      scale: fc.constantFrom(1, 1, 1, 100, 1e6),
      mask: optional(fc.oneof({ arbitrary: fc.constantFrom(...MASK_AXES).chain((axes) => alignedSpec(sizes, axes, bool)), weight: 6 }, { arbitrary: tensorSpec(sizes, fc.constant('bool')), weight: 1 })),
      bias: optional(fc.oneof({ arbitrary: fc.constantFrom(...BIAS_AXES).chain((axes) => alignedSpec(sizes, axes, float)), weight: 6 }, { arbitrary: tensorSpec(sizes, float), weight: 1 })),
      extremes: fc.array(fc.tuple(fc.nat(), fc.nat(EXTREMES.length - 1)), { maxLength: 4 }),
      dropout: fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: fc.constantFrom<unknown>(0, 0.5, 0.9, -0.1, 1, Number.NaN, '0.1', null), weight: 2 }),
      training: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
    });
  });

function isSpec(value: unknown): value is TensorSpec {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'seed');
}

/** The tensor of a spec with its values scaled and some set to extremes. */
function operandTensor(spec: TensorSpec, scale: number, extremes: Case['extremes'] = []): Tensor {
  const values = specValues(spec).map((v) => (spec.dtype === 'float32' ? v * scale : v));
  for (const [at, which] of extremes) if (values.length > 0 && spec.dtype === 'float32') values[at % values.length] = EXTREMES[which]!;
  const t = tensor(values, [...spec.shape], spec.dtype);
  if (spec.disposed) t.dispose();
  return t;
}

/** Whether key `s` of row `(b, h, t)` may be attended, read from the mask as validateMask places it. */
function allowed(mask: TensorSpec | undefined, scores: readonly number[]): (at: number) => boolean {
  if (mask === undefined) return () => true;
  const values = specValues(mask);
  const placed = mask.shape.length === 2 ? [1, 1, ...mask.shape] : mask.shape.length === 3 ? [mask.shape[0]!, 1, mask.shape[1]!, mask.shape[2]!] : mask.shape;
  return (at) => broadcastValue(values, placed, scores, at) === 1;
}

/** The properties of a result: shapes, weights (zero where blocked, rows summing to 1 or 0), output = weights · value, no NaN. */
function wellFormed(c: Case, result: AttentionResult, rate: number): boolean {
  const [batch, heads, queryLength] = c.query.shape as [number, number, number, number]; // a result means rank-4 operands
  const [keyLength, valueDim] = [c.key.shape[2]!, c.value.shape[3]!];
  const scores = [batch, heads, queryLength, keyLength];
  if (result.output.dtype !== 'float32' || result.output.shape.join() !== [batch, heads, queryLength, valueDim].join() || result.attentionWeights.shape.join() !== scores.join()) return false;
  const weights = result.attentionWeights.dataSync();
  const output = result.output.dataSync();
  const value = specValues(c.value).map((v) => v * c.scale);
  const may = allowed(isSpec(c.mask) ? c.mask : undefined, scores);
  const dropped = c.training && rate > 0;
  for (let row = 0; row < batch * heads * queryLength; row++) {
    let sum = 0;
    let any = false;
    for (let s = 0; s < keyLength; s++) {
      const w = weights[row * keyLength + s]!;
      if (!Number.isFinite(w) || w < 0) return false;
      if (may(row * keyLength + s)) any = true;
      else if (w !== 0) return false; // blocked keys get exactly zero
      sum += w;
    }
    if (any && !dropped && Math.abs(sum - 1) > 1e-4) return false;
    if (!any && sum !== 0) return false; // a fully masked row is zeros
    if (dropped && sum > 1 / (1 - rate) + 1e-4) return false;
    const bh = Math.floor(row / queryLength); // the (b, h) of this row: value [B, H, S, Dv]
    for (let d = 0; d < valueDim; d++) {
      let expected = 0;
      let magnitude = 0;
      for (let s = 0; s < keyLength; s++) {
        const term = weights[row * keyLength + s]! * value[(bh * keyLength + s) * valueDim + d]!;
        expected += term;
        magnitude += Math.abs(term);
      }
      const got = output[row * valueDim + d]!;
      if (!Number.isFinite(got) || Math.abs(got - expected) > 1e-5 * (1 + magnitude)) return false;
    }
  }
  return true;
}

describe(`scaledDotProductAttention fuzzing (fast-check, ${FUZZ_RUNS} cases)`, () => {
  it('random B, H, T, S, D, Dv (≤ 6), operands, masks, biases, dropout: [B, H, T, Dv] output and clean weights, or a typed error', () => {
    fc.assert(
      fc.property(cases, (c) =>
        withoutLeak(() => {
          const [query, key, value] = [operandTensor(c.query, c.scale), operandTensor(c.key, c.scale), operandTensor(c.value, c.scale)];
          const mask = c.mask === undefined ? undefined : isSpec(c.mask) ? makeTensor(c.mask) : c.mask.other;
          const bias = c.bias === undefined ? undefined : isSpec(c.bias) ? operandTensor(c.bias, 1, c.extremes) : c.bias.other;
          const made = [query, key, value, ...(isSpec(c.mask) ? [mask as Tensor] : []), ...(isSpec(c.bias) ? [bias as Tensor] : [])];
          let result: AttentionResult;
          try {
            result = scaledDotProductAttention(query, key, value, { mask: mask as Tensor, bias: bias as Tensor, dropout: c.dropout as number, training: c.training, seed: 7 });
          } catch (error) {
            return isTypedError(error);
          } finally {
            made.forEach((t) => t.dispose());
          }
          const ok = wellFormed(c, result, (c.dropout as number | undefined) ?? 0);
          result.output.dispose();
          result.attentionWeights.dispose();
          return ok;
        }),
      ),
      { numRuns: FUZZ_RUNS, seed: 41 },
    );
  }, FUZZ_TIMEOUT_MS);
});
