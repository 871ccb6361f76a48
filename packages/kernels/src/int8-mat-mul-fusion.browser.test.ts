import { add, concat, engine, randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { RMS_NORM_KERNEL } from './tfjs-fills/wasm-rms-norm-fill.js';
import { LAYER_NORM_KERNEL } from './tfjs-fills/wasm-layer-norm-fill.js';
import { int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { int8GatedFeedForward } from './int8-gated-feed-forward.js';
import { SILU_MUL_KERNEL } from './tfjs-fills/wasm-silu-mul-fill.js';
import { withSmallJobWork } from './kernel-threads.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';

// Chromium runs the relaxed-SIMD modules too: their input-norm prologue and residual epilogue give the unfused numbers.
describe('int8MatMul inputNorm and residual in Chromium', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it.each([[45, 1], [576, 13]] as const)('equal the wasm RMSNorm / LayerNorm kernel, the product and tfjs add bit for bit on every kernel, split over the threads or not (K = %i, N = %i)', async (depth, rows) => {
    await useTfjsBackend('wasm');
    const x = randomNormal([rows, depth], 0, 3, 'float32', 1);
    const weight = quantizeWeightPerChannel(randomNormal([depth, 40], 0, 0.2, 'float32', 2));
    const [bias, residual, gamma, beta] = [randomNormal([40], 0, 0.5, 'float32', 3), randomNormal([rows, 40], 0, 2, 'float32', 4), randomNormal([depth], 1, 0.2, 'float32', 5), randomNormal([depth], 0, 0.2, 'float32', 6)];
    const rmsNormed = engine().runKernel(RMS_NORM_KERNEL, { x, weight: gamma }, { epsilon: 1e-5 }) as Tensor;
    const layerNormed = engine().runKernel(LAYER_NORM_KERNEL, { x, gamma, beta }, { epsilon: 1e-5 }) as Tensor;
    expect(int8Kernels().supported).toContain('relaxed-simd');
    for (const kernel of int8Kernels().supported) {
      for (const split of [false, true]) {
        const run = (fn: () => Tensor) => (split ? withSmallJobWork(0, fn) : fn());
        const rms = run(() => int8MatMul(x, weight, bias, { kernel, inputNorm: { kind: 'rmsNorm', weight: gamma, epsilon: 1e-5 }, residual }));
        const layer = run(() => int8MatMul(x, weight, bias, { kernel, inputNorm: { kind: 'layerNorm', weight: gamma, bias: beta, epsilon: 1e-5 } }));
        expect(Array.from(await rms.data()), `${kernel} rmsNorm + residual${split ? ', split' : ''}`).toEqual(Array.from(await add(int8MatMul(rmsNormed, weight, bias, { kernel }), residual).data()));
        expect(Array.from(await layer.data()), `${kernel} layerNorm${split ? ', split' : ''}`).toEqual(Array.from(await int8MatMul(layerNormed, weight, bias, { kernel }).data()));
      }
    }
  });
});

// The relaxed modules' silu · up between the two products (csrc/silu-mul.h without v128.bitselect) gives the wasm SiLU kernel's numbers.
describe('int8GatedFeedForward in Chromium', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it.each([[1, 576, 40], [13, 45, 7]] as const)('equals the gate/up product, the SiLU · up kernel and the down product bit for bit on every kernel, split over the threads or not (N = %i, K = %i, F = %i)', async (rows, depth, hidden) => {
    await useTfjsBackend('wasm');
    const x = randomNormal([rows, depth], 0, 2, 'float32', 1);
    const gateUp = quantizeWeightPerChannel(concat([randomNormal([depth, hidden], 0, 0.3, 'float32', 2), randomNormal([depth, hidden], 0, 0.3, 'float32', 3)], 1));
    const down = quantizeWeightPerChannel(randomNormal([hidden, 24], 0, 0.3, 'float32', 4));
    const [gamma, residual] = [randomNormal([depth], 1, 0.2, 'float32', 5), randomNormal([rows, 24], 0, 2, 'float32', 6)];
    const inputNorm = { kind: 'rmsNorm', weight: gamma, epsilon: 1e-5 } as const;
    expect(int8Kernels().supported).toContain('relaxed-simd');
    for (const kernel of int8Kernels().supported) {
      for (const split of [false, true]) {
        const got = split ? withSmallJobWork(0, () => int8GatedFeedForward(x, gateUp, down, { kernel, inputNorm, residual })) : int8GatedFeedForward(x, gateUp, down, { kernel, inputNorm, residual });
        const hiddenRows = engine().runKernel(SILU_MUL_KERNEL, { x: int8MatMul(x, gateUp, undefined, { kernel, inputNorm }) }) as Tensor;
        expect(Array.from(await got.data()), `${kernel}${split ? ', split' : ''}`).toEqual(Array.from(await int8MatMul(hiddenRows, down, undefined, { kernel, residual }).data()));
      }
    }
  });
});
