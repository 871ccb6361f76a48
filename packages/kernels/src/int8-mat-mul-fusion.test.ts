import { add, cast, engine, randomNormal, randomUniform, tensor, tensor1d, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { RMS_NORM_KERNEL } from './tfjs-fills/wasm-rms-norm-fill.js';
import { LAYER_NORM_KERNEL } from './tfjs-fills/wasm-layer-norm-fill.js';
import { inputNormF32 } from './input-norm-f32.js';
import { int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { withSmallJobWork } from './kernel-threads.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';

const EPS = 1e-5;

// K odd (a scalar tail after the 4-lane sums) and SmolLM's 576; one row (a decoding step) and rows not a multiple of the thread split.
describe.each([[45, 1], [45, 7], [576, 1], [576, 13]] as const)('int8MatMul with inputNorm and residual (K = %i, N = %i)', (depth, rows) => {
  afterAll(() => useTfjsBackend('cpu'));
  const width = 40;
  const make = () => ({
    x: randomNormal([rows, depth], 0, 3, 'float32', 1),
    weight: quantizeWeightPerChannel(randomNormal([depth, width], 0, 0.2, 'float32', 2)),
    bias: randomNormal([width], 0, 0.5, 'float32', 3),
    residual: randomNormal([rows, width], 0, 2, 'float32', 4),
    gamma: randomNormal([depth], 1, 0.2, 'float32', 5),
    beta: randomNormal([depth], 0, 0.2, 'float32', 6),
  });

  it("on wasm equals the backend's RMSNorm / LayerNorm kernel, the product and tfjs add, bit for bit, on every kernel and split over the threads", async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias, residual, gamma, beta } = make();
    for (const kernel of int8Kernels().supported) {
      for (const split of [false, true]) {
        const run = <T>(fn: () => T) => (split ? withSmallJobWork(0, fn) : fn());
        const rmsNormed = engine().runKernel(RMS_NORM_KERNEL, { x, weight: gamma }, { epsilon: EPS }) as Tensor;
        const layerNormed = engine().runKernel(LAYER_NORM_KERNEL, { x, gamma, beta }, { epsilon: EPS }) as Tensor;
        const cases: [string, Tensor, Tensor][] = [
          ['rmsNorm', run(() => int8MatMul(x, weight, bias, { kernel, inputNorm: { kind: 'rmsNorm', weight: gamma, epsilon: EPS } })), int8MatMul(rmsNormed, weight, bias, { kernel })],
          ['layerNorm + residual', run(() => int8MatMul(x, weight, bias, { kernel, inputNorm: { kind: 'layerNorm', weight: gamma, bias: beta, epsilon: EPS }, residual })), add(residual, int8MatMul(layerNormed, weight, bias, { kernel }))],
          ['residual', run(() => int8MatMul(x, weight, undefined, { kernel, residual })), add(int8MatMul(x, weight, undefined, { kernel }), residual)],
          ['rmsNorm + residual + gelu', run(() => int8MatMul(x, weight, bias, { kernel, activation: 'gelu', inputNorm: { kind: 'rmsNorm', weight: gamma, epsilon: EPS }, residual })), add(residual, int8MatMul(rmsNormed, weight, bias, { kernel, activation: 'gelu' }))],
        ];
        for (const [name, fused, unfused] of cases) expect(Array.from(fused.dataSync()), `${kernel} ${name}${split ? ', split' : ''}`).toEqual(Array.from(unfused.dataSync()));
      }
    }
  });

  it('on cpu equals inputNormF32, the product and a float32 add, bit for bit, on every kernel (the js kernel too)', async () => {
    await useTfjsBackend('cpu');
    const { x, weight, bias, residual, gamma, beta } = make();
    const [xs, g, b, r] = [x, gamma, beta, residual].map((t) => t.dataSync() as Float32Array) as [Float32Array, Float32Array, Float32Array, Float32Array];
    for (const kernel of int8Kernels().supported) {
      for (const norm of [{ kind: 'rmsNorm', weight: g, epsilon: EPS }, { kind: 'layerNorm', weight: g, bias: b, epsilon: EPS }] as const) {
        const normed = tensor(inputNormF32(Float32Array.from(xs), norm, rows, depth), [rows, depth]);
        const product = int8MatMul(normed, weight, bias, { kernel }).dataSync() as Float32Array;
        const want = Array.from(product, (v, i) => Math.fround(r[i]! + v));
        const inputNorm = norm.kind === 'rmsNorm' ? { kind: norm.kind, weight: gamma, epsilon: EPS } : { kind: norm.kind, weight: gamma, bias: beta, epsilon: EPS };
        expect(Array.from(int8MatMul(x, weight, bias, { kernel, inputNorm, residual }).dataSync()), `${kernel} ${norm.kind}`).toEqual(want);
      }
    }
  });

  it('leaks nothing', async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias, residual, gamma } = make();
    expect(await leaksOf(() => int8MatMul(x, weight, bias, { inputNorm: { kind: 'rmsNorm', weight: gamma, epsilon: EPS }, residual }).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });
});

describe('int8MatMul inputNorm and residual: bad inputs', () => {
  it.each([
    ['an unknown kind', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'batchNorm', weight: t['gamma'], epsilon: EPS } }), /'inputNorm.kind' must be 'rmsNorm' or 'layerNorm'; received string 'batchNorm'/],
    ['a norm weight of another length', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'rmsNorm', weight: t['short'], epsilon: EPS } }), /'inputNorm.weight' must be a float32 tensor \[K\] with K = 5 \(the last axis of 'x'\); received \[4\]/],
    ['an RMSNorm with a bias', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'rmsNorm', weight: t['gamma'], bias: t['gamma'], epsilon: EPS } }), /'inputNorm.bias' must be no bias with kind 'rmsNorm'/],
    ['a LayerNorm without bias', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'layerNorm', weight: t['gamma'], epsilon: EPS } }), /'inputNorm.bias' must be a float32 tensor/],
    ['an RMSNorm epsilon of 0', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'rmsNorm', weight: t['gamma'], epsilon: 0 } }), /'inputNorm.epsilon' must be a finite number > 0/],
    ['a NaN LayerNorm epsilon', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'layerNorm', weight: t['gamma'], bias: t['gamma'], epsilon: Number.NaN } }), /'inputNorm.epsilon' must be a finite number ≥ 0/],
    ['an unknown norm key', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'rmsNorm', weight: t['gamma'], epsilon: EPS, eps: 1 } }), /unknown key 'eps'/],
    ['an int32 norm weight', (t: Record<string, Tensor>) => ({ inputNorm: { kind: 'rmsNorm', weight: t['ints'], epsilon: EPS } }), /'inputNorm.weight' must be a float32 tensor/],
    ['a residual of another shape', (t: Record<string, Tensor>) => ({ residual: t['wide'] }), /'residual' must be a float32 tensor of the output's shape \[3, 8\]; received \[3, 9\]/],
    ['an int32 residual', (t: Record<string, Tensor>) => ({ residual: t['intResidual'] }), /'residual' must be a float32 tensor/],
    ['a residual with residualLayerNorm', (t: Record<string, Tensor>) => ({ residual: t['residual'], residualLayerNorm: { residual: t['residual'], gamma: t['ones8'], beta: t['ones8'], epsilon: EPS } }), /'residual' must be absent with residualLayerNorm/],
  ] as const)('refuses %s with a typed error, leaking nothing', async (_, options, message) => {
    for (const backend of ['cpu', 'wasm'] as const) {
      await useTfjsBackend(backend);
      const t: Record<string, Tensor> = {
        gamma: tensor1d([1, 1, 1, 1, 1]), short: tensor1d([1, 1, 1, 1]), ints: tensor1d([1, 1, 1, 1, 1], 'int32'), residual: randomNormal([3, 8]), wide: randomNormal([3, 9]),
        intResidual: cast(randomNormal([3, 8]), 'int32'), ones8: tensor1d(new Array(8).fill(1)),
      };
      const x = randomNormal([3, 5]);
      const weight = quantizeWeightPerChannel(randomNormal([5, 8]));
      const leaks = await leaksOf(() => {
        for (const kernel of int8Kernels().supported) {
          expect(() => int8MatMul(x, weight, undefined, { kernel, ...options(t) } as never), `${backend} ${kernel}`).toThrow(InvalidArgumentError);
          expect(() => int8MatMul(x, weight, undefined, { kernel, ...options(t) } as never), `${backend} ${kernel}`).toThrow(message);
        }
      });
      expect(leaks).toEqual({ tensors: 0, bytes: 0 });
    }
  });

  it('names the non-finite value given, not the normalized row, on every kernel and backend', async () => {
    for (const backend of ['cpu', 'wasm'] as const) {
      await useTfjsBackend(backend);
      const x = tensor([[1, 2, 3, 4, 5], [1, 2, Number.POSITIVE_INFINITY, 4, 5]]);
      const weight = quantizeWeightPerChannel(randomUniform([5, 8], -1, 1));
      for (const kernel of int8Kernels().supported) {
        expect(() => int8MatMul(x, weight, undefined, { kernel, inputNorm: { kind: 'rmsNorm', weight: tensor1d([1, 1, 1, 1, 1]), epsilon: EPS } }), `${backend} ${kernel}`).toThrow(/'x' must be finite values only.*; received Infinity at flat index 7/);
      }
    }
  });
});
