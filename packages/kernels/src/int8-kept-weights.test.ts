import { randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { int8Kernel, int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import type { Int8Weight } from './int8-weight.js';
import { quantizeRows } from './quantize-rows.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';
import type { WasmInt8Gemm } from './wasm-int8-gemm.js';

/** The exact expected output from the current values of x and of the weight (never from the kernel's memory). */
function expected(x: Tensor, weight: Int8Weight, levels: 127 | 63): number[] {
  const rows = x.size / weight.inFeatures;
  const q = quantizeRows(x.dataSync(), rows, weight.inFeatures, levels, 'test', 'x');
  return Array.from(dequantizeAccumulators(int8MatMulReference(q.values, weight.values, { rows, cols: weight.outFeatures, depth: weight.inFeatures }), q.scales, weight.scales));
}

// int8MatMul keeps each weight's packed panel (and a copy of its bytes) in the kernel's memory, so a
// layer's weight is packed once; before each use the bytes are compared, so new values are never
// served an old panel.
describe.each(int8Kernels().supported.filter((k) => k !== 'js'))('int8MatMul keeping weights, %s kernel', (name) => {
  const kernel = () => int8Kernel(name, 'test') as WasmInt8Gemm;
  const levels = () => kernel().activationLevels;
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it('packs each weight once: alternating layers keep their own panels and their exact numbers', () => {
    const x = randomNormal([9, 48], 0, 1, 'float32', 1);
    const weights = [0, 1, 2].map((i) => quantizeWeightPerChannel(randomNormal([48, 20 + 7 * i], 0, 0.1, 'float32', 10 + i)));
    const before = kernel().keptWeights.count;
    for (let round = 0; round < 3; round++) {
      for (const w of weights) expect(Array.from(int8MatMul(x, w, undefined, { kernel: name }).dataSync())).toEqual(expected(x, w, levels()));
    }
    expect(kernel().keptWeights.count - before).toBe(3);
  });

  it('notices an Int8Weight whose values were changed in place, and packs it again', () => {
    const x = randomNormal([5, 33], 0, 1, 'float32', 2);
    const w = quantizeWeightPerChannel(randomNormal([33, 17], 0, 0.1, 'float32', 3));
    expect(Array.from(int8MatMul(x, w, undefined, { kernel: name }).dataSync())).toEqual(expected(x, w, levels()));
    w.values[0] = w.values[0] === 127 ? -127 : 127; // one byte of the first output channel
    w.values[w.values.length - 1] = -w.values[w.values.length - 1]! || 5; // and the last
    expect(Array.from(int8MatMul(x, w, undefined, { kernel: name }).dataSync())).toEqual(expected(x, w, levels()));
  });

  it('re-quantizes a shared input when a new weight moves the kernel\'s buffers (q, k, v of a first forward)', () => {
    const x = randomNormal([7, 40], 0, 1, 'float32', 4);
    for (let i = 0; i < 4; i++) { // each a weight never seen: the kept region grows before each product
      const w = quantizeWeightPerChannel(randomNormal([40, 24], 0, 0.1, 'float32', 30 + i));
      expect(Array.from(int8MatMul(x, w, undefined, { kernel: name }).dataSync()), `weight ${i}`).toEqual(expected(x, w, levels()));
    }
  });

  it('computes a weight of other sizes over the same values (another Int8Weight on one array) from its own shape', () => {
    const x = randomNormal([3, 12], 0, 1, 'float32', 5);
    const square = quantizeWeightPerChannel(randomNormal([12, 12], 0, 0.1, 'float32', 6));
    int8MatMul(x, square, undefined, { kernel: name });
    const halves: Int8Weight = { values: square.values, scales: new Float32Array(24).fill(0.01), inFeatures: 6, outFeatures: 24 };
    const x6 = randomNormal([4, 6], 0, 1, 'float32', 7);
    expect(Array.from(int8MatMul(x6, halves, undefined, { kernel: name }).dataSync())).toEqual(expected(x6, halves, levels()));
  });
});
