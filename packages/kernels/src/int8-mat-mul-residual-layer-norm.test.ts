import { add, cast, engine, randomNormal, tensor1d, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { LAYER_NORM_KERNEL } from './tfjs-fills/wasm-layer-norm-fill.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf } from '@attnkit/test-utils';
import { int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';
import { residualLayerNormF32 } from './residual-layer-norm-f32.js';

const EPS = 1e-12;

/** LayerNorm in float64 (biased variance, as PyTorch) of each row of `x [rows, width]`. */
function layerNorm64(x: ArrayLike<number>, gamma: ArrayLike<number>, beta: ArrayLike<number>, width: number): number[] {
  const out: number[] = [];
  for (let o = 0; o < x.length; o += width) {
    let mean = 0;
    for (let i = 0; i < width; i++) mean += x[o + i]! / width;
    let variance = 0;
    for (let i = 0; i < width; i++) variance += (x[o + i]! - mean) ** 2 / width;
    for (let i = 0; i < width; i++) out.push(((x[o + i]! - mean) / Math.sqrt(variance + EPS)) * gamma[i]! + beta[i]!);
  }
  return out;
}

// Odd width (a scalar tail after the 4-lane sums) and BERT's 384; rows not a multiple of the thread split.
describe.each([[45, 7], [384, 13]] as const)("int8MatMul with residualLayerNorm (M = %i, N = %i)", (width, rows) => {
  afterAll(() => useTfjsBackend('cpu'));
  const make = () => {
    const x = randomNormal([rows, 40], 0, 1, 'float32', 1);
    const weight = quantizeWeightPerChannel(randomNormal([40, width], 0, 0.2, 'float32', 2));
    const bias = randomNormal([width], 0, 0.5, 'float32', 3);
    const residual = randomNormal([rows, width], 0, 2, 'float32', 4);
    const gamma = randomNormal([width], 1, 0.2, 'float32', 5);
    const beta = randomNormal([width], 0, 0.2, 'float32', 6);
    return { x, weight, bias, residual, gamma, beta };
  };

  it('on wasm equals tfjs add + the backend\'s LayerNorm kernel bit for bit, on every kernel', async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias, residual, gamma, beta } = make();
    for (const kernel of int8Kernels().supported) {
      const unfused = engine().runKernel(LAYER_NORM_KERNEL, { x: add(int8MatMul(x, weight, bias, { kernel }), residual), gamma, beta }, { epsilon: EPS }) as Tensor;
      const fused = int8MatMul(x, weight, bias, { kernel, residualLayerNorm: { residual, gamma, beta, epsilon: EPS } });
      expect(Array.from(fused.dataSync()), kernel).toEqual(Array.from(unfused.dataSync()));
    }
  });

  it('on cpu equals residualLayerNormF32 of the product bit for bit, and float64 LayerNorm within 2e-6', async () => {
    await useTfjsBackend('cpu');
    const { x, weight, bias, residual, gamma, beta } = make();
    for (const kernel of int8Kernels().supported) {
      const product = int8MatMul(x, weight, bias, { kernel }).dataSync() as Float32Array;
      const want = residualLayerNormF32(Float32Array.from(product), { residual: residual.dataSync() as Float32Array, gamma: gamma.dataSync() as Float32Array, beta: beta.dataSync() as Float32Array, epsilon: EPS }, rows, width);
      const fused = int8MatMul(x, weight, bias, { kernel, residualLayerNorm: { residual, gamma, beta, epsilon: EPS } }).dataSync() as Float32Array;
      expect(Array.from(fused), kernel).toEqual(Array.from(want));
      const summed = Array.from(product, (v, i) => v + residual.dataSync()[i]!);
      const reference = layerNorm64(summed, gamma.dataSync(), beta.dataSync(), width);
      expect(Math.max(...reference.map((v, i) => Math.abs(v - fused[i]!)))).toBeLessThan(2e-6);
    }
  });

  it('leaks nothing', async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias, residual, gamma, beta } = make();
    expect(await leaksOf(() => int8MatMul(x, weight, bias, { residualLayerNorm: { residual, gamma, beta, epsilon: EPS } }).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });
});

describe('int8MatMul residualLayerNorm: bad inputs', () => {
  it.each([
    ['a residual of another shape', (t: Record<string, Tensor>) => ({ residual: t['wide']!, gamma: t['gamma']!, beta: t['beta']!, epsilon: EPS }), /residualLayerNorm.residual' must be a float32 tensor of the output's shape \[3, 8\]; received \[3, 9\]/],
    ['a gamma of another length', (t: Record<string, Tensor>) => ({ residual: t['residual']!, gamma: t['short']!, beta: t['beta']!, epsilon: EPS }), /residualLayerNorm.gamma' must be a float32 tensor \[M\] with M = 8; received \[7\]/],
    ['a NaN epsilon', (t: Record<string, Tensor>) => ({ residual: t['residual']!, gamma: t['gamma']!, beta: t['beta']!, epsilon: Number.NaN }), /residualLayerNorm.epsilon' must be a finite number ≥ 0/],
    ['a negative epsilon', (t: Record<string, Tensor>) => ({ residual: t['residual']!, gamma: t['gamma']!, beta: t['beta']!, epsilon: -1 }), /residualLayerNorm.epsilon' must be a finite number ≥ 0/],
    ['an unknown key', (t: Record<string, Tensor>) => ({ residual: t['residual']!, gamma: t['gamma']!, beta: t['beta']!, epsilon: EPS, eps: 1 }), /unknown key 'eps'/],
    ['an int32 residual', (t: Record<string, Tensor>) => ({ residual: t['ints']!, gamma: t['gamma']!, beta: t['beta']!, epsilon: EPS }), /residualLayerNorm.residual/],
  ] as const)('refuses %s with a typed error, leaking nothing', async (_, option, message) => {
    await useTfjsBackend('cpu');
    const t: Record<string, Tensor> = {
      residual: randomNormal([3, 8]), wide: randomNormal([3, 9]), gamma: tensor1d(new Array(8).fill(1)), beta: tensor1d(new Array(8).fill(0)), short: tensor1d(new Array(7).fill(1)),
      ints: cast(randomNormal([3, 8]), 'int32'),
    };
    const x = randomNormal([3, 5]);
    const weight = quantizeWeightPerChannel(randomNormal([5, 8]));
    const leaks = await leaksOf(() => {
      expect(() => int8MatMul(x, weight, undefined, { residualLayerNorm: option(t) as never })).toThrow(InvalidArgumentError);
      expect(() => int8MatMul(x, weight, undefined, { residualLayerNorm: option(t) as never })).toThrow(message);
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
  });
});
