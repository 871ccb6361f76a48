import { reshape, tensor1d, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { maxDifference, withBackend } from '@attnkit/backends';
import { causalMask, paddingMask } from '@attnkit/masks';
import { MultiHeadAttention, scaledDotProductAttention } from '@attnkit/attention';
import { fixtureTensor, fixtureValues, specOf, type FixtureCase } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/combinations.json' with { type: 'json' };
import { attempt, rejects, safely, type CatalogueCase } from './catalogue-case.js';

const C = 'combinations';
/** The tolerance of the attention parity tests (`multi-head-attention.parity.test.ts`, `scaled-dot-product-attention.test.ts`) on cpu and wasm. */
const TOLERANCE = 1e-5;
const BACKENDS = ['cpu', 'wasm'] as const;

/** One combination of `tooling/reference/make_combination_fixtures.py`: a block, a mask layout and sizes. */
interface CombinationCase extends FixtureCase {
  readonly block: 'sdpa' | 'mha';
  readonly layout: string;
  readonly sizes: { readonly B: number; readonly H: number; readonly T: number; readonly S: number; readonly D: number };
}
const { cases } = fixtures as unknown as { cases: Record<string, CombinationCase> };

/** How far attnkit is from PyTorch on one backend: max |Δ| of the output and of the weights (Infinity for a NaN/±Inf mismatch). */
export interface CombinationDiff {
  readonly output: number;
  readonly weights: number;
}

/** The bool mask of an SDPA case, built as a user would: `paddingMask` from lengths, `causalMask` with an offset, or the stored tensor. */
function sdpaMask(spec: CombinationCase): Tensor | undefined {
  const { inputs, layout, sizes } = spec;
  if (layout === 'padding [B, 1, 1, S]') return paddingMask(inputs['lengths'] as number[], sizes.S); // [B, 1, 1, S], a length 0 included
  if (layout === 'causal [1, 1, T, S]') return causalMask(sizes.T, sizes.S, { offset: inputs['causalOffset'] as number }); // [1, 1, T, S]
  return inputs['mask'] === undefined ? undefined : fixtureTensor(specOf(inputs, 'mask'));
}

/** Runs one case's block on the active backend: output and weights as tensors (the caller disposes them). */
function attend(spec: CombinationCase): { output: Tensor; attentionWeights: Tensor } {
  const { inputs } = spec;
  const optional = (name: string): Tensor | undefined => (inputs[name] === undefined ? undefined : fixtureTensor(specOf(inputs, name)));
  if (spec.block === 'sdpa') {
    return tidy(() => {
      const query = fixtureTensor(specOf(inputs, 'query')); // [B, H, T, D]
      const [key, value] = [fixtureTensor(specOf(inputs, 'key')), fixtureTensor(specOf(inputs, 'value'))]; // [B, H, S, D]
      const { output, attentionWeights } = scaledDotProductAttention(query, key, value, { mask: sdpaMask(spec), bias: optional('bias') });
      return { output, attentionWeights };
    });
  }
  const numHeads = inputs['numHeads'] as number;
  const batchFirst = inputs['batchFirst'] as boolean;
  const weights = Object.fromEntries(Object.entries(spec.weights!).map(([name, w]) => [name, fixtureTensor(w)]));
  const mha = MultiHeadAttention.fromTorchStateDict(weights, { numHeads, layout: batchFirst ? 'batch-first' : 'seq-first' });
  Object.values(weights).forEach((w) => w.dispose());
  try {
    return tidy(() => {
      const query = fixtureTensor(specOf(inputs, 'query')); // [B, T, E] or seq-first [T, B, E]
      const self = inputs['selfAttention'] as boolean; // self-attention passes one tensor three times, as PyTorch did (the fused q/k/v path)
      const key = self ? query : fixtureTensor(specOf(inputs, 'key'));
      const value = self ? query : fixtureTensor(specOf(inputs, 'value'));
      const average = inputs['averageAttnWeights'] as boolean;
      const result = batchFirst
        ? mha.forwardTorch(query, key, value, { keyPaddingMask: optional('keyPaddingMask'), attnMask: optional('attnMask'), needWeights: true, averageAttnWeights: average })
        : mha.forward(query, key, value, { attentionMask: optional('attentionMask'), attentionBias: optional('attentionBias'), returnWeights: average ? 'averaged' : 'per-head' }); // mask [T|1, S, B|1]
      return { output: result.output, attentionWeights: result.attentionWeights! };
    });
  } finally {
    mha.dispose();
  }
}

/** One case on `backend`: attnkit's output and weights against the float64 PyTorch values. */
export function compareWithTorch(spec: CombinationCase, backend: string): Promise<CombinationDiff> {
  return withBackend(backend, async () => {
    const { output, attentionWeights } = attend(spec);
    try {
      const [values, weights] = [await output.data(), await attentionWeights.data()];
      return {
        output: maxDifference(values, fixtureValues(specOf(spec.outputs, 'output')), C).maxAbsDiff,
        weights: maxDifference(weights, fixtureValues(specOf(spec.outputs, 'attentionWeights')), C).maxAbsDiff,
      };
    } finally {
      output.dispose();
      attentionWeights.dispose();
    }
  });
}

const withinTolerance = (value: unknown): boolean => {
  const { output, weights } = value as CombinationDiff;
  return output <= TOLERANCE && weights <= TOLERANCE;
};

/** Every combination of the fixture on each Node backend: attnkit equals PyTorch (NaN and ±Inf exactly, finite values within 1e-5). */
const parityCases: CatalogueCase[] = Object.entries(cases).flatMap(([name, spec]) =>
  BACKENDS.map((backend) =>
    safely(C, `${name}, ${backend}`, `equals PyTorch within ${TOLERANCE} (output and weights)`, () => compareWithTorch(spec, backend), withinTolerance),
  ),
);

/** An SDPA call on [1, 1, 2, 4] inputs, one of them of another dtype. */
function sdpaWith(dtype: { query?: 'int32'; key?: 'bool'; mask?: 'float32' }): void {
  attempt(() => {
    const query = zeros([1, 1, 2, 4], dtype.query ?? 'float32');
    const [key, value] = [zeros([1, 1, 3, 4], dtype.key ?? 'float32'), zeros([1, 1, 3, 4])];
    scaledDotProductAttention(query, key, value, { mask: dtype.mask === undefined ? undefined : zeros([1, 1, 1, 3], dtype.mask) });
  });
}

/** A self-attention layer called with PyTorch's conventions, one argument of another dtype. */
function mhaWith(dtype: { query?: 'int32'; key?: 'bool'; keyPaddingMask?: 'int32' }): void {
  const mha = new MultiHeadAttention({ embedDim: 8, numHeads: 2, seed: 1 });
  try {
    attempt(() => {
      const query = zeros([1, 2, 8], dtype.query ?? 'float32');
      const key = zeros([1, 3, 8], dtype.key ?? 'float32');
      mha.forwardTorch(query, key, zeros([1, 3, 8]), { keyPaddingMask: dtype.keyPaddingMask === undefined ? undefined : zeros([1, 3], dtype.keyPaddingMask) });
    });
  } finally {
    mha.dispose();
  }
}

/** Inputs of the wrong dtype, and the [B, S] mask that B = T makes ambiguous: typed errors on each backend. */
const dtypeCases: CatalogueCase[] = BACKENDS.flatMap((backend) => {
  const on = (fn: () => unknown) => () => withBackend(backend, fn);
  const E = 'InvalidArgumentError';
  return [
    rejects(C, `scaledDotProductAttention, int32 query, ${backend}`, E, /^scaledDotProductAttention: 'query' must be a float32 tensor of rank 4 \[B, H, T, D\]; received int32 tensor/, on(() => sdpaWith({ query: 'int32' }))),
    rejects(C, `scaledDotProductAttention, bool key, ${backend}`, E, /^scaledDotProductAttention: 'key' must be a float32 tensor of rank 4 \[B, H, S, D\]; received bool tensor/, on(() => sdpaWith({ key: 'bool' }))),
    rejects(C, `scaledDotProductAttention, float32 mask (bool needed), ${backend}`, E, /'mask' must be a bool tensor; received float32 tensor.*fromTorchBoolMask/, on(() => sdpaWith({ mask: 'float32' }))),
    rejects(C, `scaledDotProductAttention, a [B, S] mask with B = T = 3, ${backend}`, E, /could be \[T, S\] or a \[B, S\] padding mask.*\[B, 1, 1, S\]/, on(() => attempt(() => {
      const [q, k] = [zeros([3, 2, 3, 4]), zeros([3, 2, 7, 4])];
      scaledDotProductAttention(q, k, k, { mask: reshape(paddingMask([7, 4, 0], 7), [3, 7]) }); // [B, 1, 1, S] -> [B, S]
    }))),
    rejects(C, `MultiHeadAttention.forwardTorch, int32 query, ${backend}`, E, /^MultiHeadAttention.forwardTorch: 'query' must be a float32 tensor of rank 3 \[B, T, E\]; received int32 tensor/, on(() => mhaWith({ query: 'int32' }))),
    rejects(C, `MultiHeadAttention.forwardTorch, bool key, ${backend}`, E, /^MultiHeadAttention.forwardTorch: 'key' must be a float32 tensor of rank 3 \[B, S, keyDim\]; received bool tensor/, on(() => mhaWith({ key: 'bool' }))),
    rejects(C, `MultiHeadAttention.forwardTorch, int32 keyPaddingMask, ${backend}`, E, /'keyPaddingMask' must be a bool or float32 tensor.*received int32 tensor/, on(() => mhaWith({ keyPaddingMask: 'int32' }))),
    rejects(C, `MultiHeadAttention.forward, float32 attentionMask (bool needed), ${backend}`, E, /'attentionMask' must be a bool tensor; received float32 tensor/, on(() => {
      const mha = new MultiHeadAttention({ embedDim: 8, numHeads: 2, seed: 1 });
      try {
        attempt(() => mha.forward(zeros([1, 2, 8]), undefined, undefined, { attentionMask: zeros([1, 1, 1, 2]) }));
      } finally {
        mha.dispose();
      }
    })),
    safely(C, `paddingMask, int32 lengths [2, 0], ${backend}`, 'the [B, 1, 1, S] mask', on(async () => {
      const lengths = tensor1d([2, 0], 'int32');
      const mask = paddingMask(lengths, 3);
      const result = { shape: mask.shape, values: Array.from(await mask.data()) };
      [lengths, mask].forEach((t) => t.dispose());
      return result;
    }), (v) => JSON.stringify(v) === JSON.stringify({ shape: [2, 1, 1, 3], values: [1, 1, 0, 0, 0, 0] })),
    rejects(C, `paddingMask, float32 lengths [2, 0], ${backend}`, E, /^paddingMask: 'lengths' must be an int32 tensor of rank 1 \[B\]; received float32 tensor/, on(() => {
      const lengths = tensor1d([2, 0]);
      try {
        paddingMask(lengths, 3);
      } finally {
        lengths.dispose();
      }
    })),
    rejects(C, `paddingMask, fractional lengths [2.5, 0], ${backend}`, E, /^paddingMask: 'lengths\[0\]' must be an integer from 0 to keyLength = 3; received number 2.5/, on(() => paddingMask([2.5, 0], 3))),
  ];
});

/**
 * The `combinations` area: mask layout × backend × size for scaledDotProductAttention and
 * MultiHeadAttention, each compared with PyTorch (`fixtures/combinations.json`), catching silent
 * wrong answers; then the dtype rows, each a typed error.
 */
export const combinationsCases: CatalogueCase[] = [...parityCases, ...dtypeCases];
