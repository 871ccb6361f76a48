import { matMul, mul, randomNormal, scalar, sum, tensor, tensor1d, tidy, variable, variableGrads, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { int8MatMul } from './int8-mat-mul.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';
import { quantizeRows } from './quantize-rows.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';
import type { Int8Weight } from './int8-weight.js';

beforeAll(() => useTfjsBackend('cpu'));

/** The exact expected output: quantize x's rows, reference integers, the float32 epilogue. */
function expected(x: Tensor, weight: Int8Weight, bias: Tensor | undefined, levels: 127 | 63): Float32Array {
  const rows = x.size / weight.inFeatures;
  const q = quantizeRows(x.dataSync(), rows, weight.inFeatures, levels, 'test', 'x');
  const acc = int8MatMulReference(q.values, weight.values, { rows, cols: weight.outFeatures, depth: weight.inFeatures });
  return dequantizeAccumulators(acc, q.scales, weight.scales, bias?.dataSync() as Float32Array | undefined);
}

/** ‖y − ŷ‖ / ‖y‖ over all elements. */
function relativeError(want: Float32Array, got: Float32Array): number {
  let [err, norm] = [0, 0];
  want.forEach((w, i) => {
    err += (w - (got[i] as number)) ** 2;
    norm += w ** 2;
  });
  return Math.sqrt(err / norm);
}

describe.each(['cpu', 'wasm'] as const)('int8MatMul on %s', (backend) => {
  beforeAll(() => useTfjsBackend(backend));
  afterAll(() => useTfjsBackend('cpu'));

  it.each(['simd', 'js'] as const)('equals the integer reference bit for bit with kernel %s, [2, 3, K] -> [2, 3, M]', (kernel) => {
    const [x, w, bias] = [randomNormal([2, 3, 77], 0, 1, 'float32', 1), randomNormal([77, 19], 0, 0.1, 'float32', 2), randomNormal([19], 0, 1, 'float32', 3)];
    const weight = quantizeWeightPerChannel(w);
    const y = int8MatMul(x, weight, bias, { kernel });
    expect(y.shape).toEqual([2, 3, 19]);
    expect(Array.from(y.dataSync())).toEqual(Array.from(expected(x, weight, bias, 127)));
    [x, w, bias, y].forEach((t) => t.dispose());
  });

  it('leaks nothing', async () => {
    const [x, w] = [randomNormal([4, 16], 0, 1, 'float32', 4), randomNormal([16, 8], 0, 1, 'float32', 5)];
    const weight = quantizeWeightPerChannel(w);
    expect(await leaksOf(() => int8MatMul(x, weight).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, w].forEach((t) => t.dispose());
  });
});

describe('int8MatMul', () => {
  it('uses the fastest kernel by default: in Node 20 simd, the same numbers as js', () => {
    const [x, w] = [randomNormal([5, 33], 0, 1, 'float32', 6), randomNormal([33, 7], 0, 1, 'float32', 7)];
    const weight = quantizeWeightPerChannel(w);
    const [a, b] = [int8MatMul(x, weight), int8MatMul(x, weight, undefined, { kernel: 'js' })];
    expect(Array.from(a.dataSync())).toEqual(Array.from(b.dataSync()));
    [x, w, a, b].forEach((t) => t.dispose());
  });

  it('handles zero sizes: no rows, no output columns, and K = 0 (the bias alone)', () => {
    const weight = quantizeWeightPerChannel(zeros([4, 3]));
    const noRows = int8MatMul(zeros([0, 4]), weight);
    expect(noRows.shape).toEqual([0, 3]);
    const noCols = int8MatMul(zeros([2, 4]), quantizeWeightPerChannel({ values: [], inFeatures: 4, outFeatures: 0 }));
    expect(noCols.shape).toEqual([2, 0]);
    const bias = tensor1d([1, -2]);
    const noDepth = int8MatMul(zeros([3, 0]), quantizeWeightPerChannel({ values: [], inFeatures: 0, outFeatures: 2 }), bias);
    expect(Array.from(noDepth.dataSync())).toEqual([1, -2, 1, -2, 1, -2]);
    [noRows, noCols, bias, noDepth].forEach((t) => t.dispose());
  });

  // Realistic data: LayerNorm-like activations (N(0, 1)) and trained-Linear-like weights (N(0, 0.05)),
  // BERT-base widths; then with two outlier features (×20), as BERT's hidden states have.
  it('is within 1.5% (8-bit) and 2.5% (7-bit relaxed) of the float product on realistic data; outlier features cost more', () => {
    const measure = (outliers: boolean) =>
      tidy(() => {
        const gain = tensor(Float32Array.from({ length: 384 }, (_, i) => (outliers && (i === 17 || i === 301) ? 20 : 1)));
        const x = mul(randomNormal([128, 384], 0, 1, 'float32', 8), gain); // [128, 384]
        const w = randomNormal([384, 384], 0, 0.05, 'float32', 9);
        const want = matMul(x, w).dataSync() as Float32Array;
        const weight = quantizeWeightPerChannel(w);
        return [relativeError(want, int8MatMul(x, weight, undefined, { kernel: 'simd' }).dataSync() as Float32Array), relativeError(want, expected(x, weight, undefined, 63))];
      });
    const [eight, seven] = measure(false);
    const [eightOutliers, sevenOutliers] = measure(true);
    console.info(`int8MatMul relative error vs float32: 8-bit ${(eight! * 100).toFixed(2)}%, 7-bit ${(seven! * 100).toFixed(2)}%; with outlier features 8-bit ${(eightOutliers! * 100).toFixed(2)}%, 7-bit ${(sevenOutliers! * 100).toFixed(2)}%`);
    // measured (seeded, so fixed): 8-bit 1.02%, 7-bit 1.62%; with outliers 3.29% and 6.48%
    expect(eight).toBeLessThan(0.015); // weight and activation rounding, about 0.7% each
    expect(seven).toBeLessThan(0.025);
    expect(seven).toBeGreaterThan(1.3 * eight!); // the activations' half of the error doubles with one bit fewer
    expect(eightOutliers).toBeGreaterThan(2 * eight!); // per-row scales: an outlier coarsens its whole row
    expect(sevenOutliers).toBeLessThan(0.08);
  });
});

describe('int8MatMul errors', () => {
  const weight = quantizeWeightPerChannel({ values: new Float32Array(12).fill(0.5), inFeatures: 4, outFeatures: 3 });

  it.each([
    ['x of the wrong width, naming both shapes', () => int8MatMul(zeros([2, 5]), weight), "int8MatMul: 'x' must be a float32 tensor [..., K] with K = 4 (weight is [M, K] = [3, 4]); received rank 2 [2, 5]."],
    ['a scalar x', () => int8MatMul(scalar(1), weight), "int8MatMul: 'x' must be a float32 tensor [..., K] with K = 4 (weight is [M, K] = [3, 4]); received rank 0 []."],
    ['an int32 x', () => int8MatMul(zeros([2, 4], 'int32'), weight), "int8MatMul: 'x' must be a float32 tensor [..., K]; received int32 tensor of rank 2 [2, 4]."],
    ['a bias of the wrong width', () => int8MatMul(zeros([2, 4]), weight, zeros([4])), "int8MatMul: 'bias' must be a float32 tensor [M] with M = 3 (weight is [M, K] = [3, 4]); received [4]."],
    ['a bias of rank 2', () => int8MatMul(zeros([2, 4]), weight, zeros([1, 3])), "int8MatMul: 'bias' must be a float32 tensor of rank 1 [M]; received float32 tensor of rank 2 [1, 3]."],
    ['an unknown kernel', () => int8MatMul(zeros([2, 4]), weight, undefined, { kernel: 'avx' as never }), "int8MatMul: 'kernel' must be one of 'relaxed-simd', 'simd', 'js'; received string 'avx'."],
    ['a misspelled option', () => int8MatMul(zeros([2, 4]), weight, undefined, { kernal: 'js' } as never), "int8MatMul: 'options' must be an object with only the keys kernel, activation, residualLayerNorm, inputNorm, residual; received the unknown key 'kernal'. Did you mean 'kernel'?"],
    ['NaN in x', () => int8MatMul(tensor([[1, 2, 3, 4], [0, Number.NaN, 0, 0]]), weight), "int8MatMul: 'x' must be finite values only (int8 quantization scales each row by its largest magnitude); received NaN at flat index 5. Replace or mask the non-finite values first."],
    ['a weight that is not an Int8Weight', () => int8MatMul(zeros([2, 4]), zeros([4, 3]) as never), /^int8MatMul: 'weight' must be an Int8Weight \{ values: Int8Array \[M, K\]/],
    ['K past the int32-exact limit', () => int8MatMul(zeros([1, 133_145]), { values: new Int8Array(133_145), scales: new Float32Array(1), inFeatures: 133_145, outFeatures: 1 }), "int8MatMul: 'weight' must be K ≤ 133144 (int32 sums of ±127 · ±127 products overflow beyond); received K = 133145. Split K and add the partial products in float."],
  ] as const)('refuses %s with InvalidArgumentError', async (_, call, message) => {
    const leaks = await leaksOf(() => {
      const error = thrown(call);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    });
    expect(leaks.tensors).toBeLessThanOrEqual(3); // only the inputs built in the call above
  });

  it('refuses the relaxed-simd kernel where the engine lacks it (Node 20 without the flag)', () => {
    const x = zeros([2, 4]);
    const error = thrown(() => int8MatMul(x, weight, undefined, { kernel: 'relaxed-simd' }));
    expect(error).toBeInstanceOf(KernelUnavailableError);
    expect(error.message).toMatch(/^int8MatMul: the 'relaxed-simd' kernel does not run in this engine \(its WebAssembly does not validate\); the ones that do: simd, js\./);
    x.dispose();
  });
});

describe('int8MatMul under a gradient tape', () => {
  it('throws InferenceOnlyError instead of silently cutting the gradient', () => {
    const weight = quantizeWeightPerChannel({ values: new Float32Array(6).fill(0.5), inFeatures: 3, outFeatures: 2 });
    const x = variable(randomNormal([2, 3]));
    expect(() => variableGrads(() => sum(int8MatMul(x, weight)) as never, [x])).toThrow(InferenceOnlyError);
    x.dispose();
  });
});
