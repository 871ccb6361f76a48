import { randomNormal, reshape, tensor, variable, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { int8Kernel } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import { quantizeRows } from './quantize-rows.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';
import type { Int8Weight } from './int8-weight.js';

/** The exact expected output from x's current values (never from the kernel's memory). */
function expected(x: Tensor, weight: Int8Weight): number[] {
  const rows = x.size / weight.inFeatures;
  const q = quantizeRows(x.dataSync(), rows, weight.inFeatures, 127, 'test', 'x');
  return Array.from(dequantizeAccumulators(int8MatMulReference(q.values, weight.values, { rows, cols: weight.outFeatures, depth: weight.inFeatures }), q.scales, weight.scales));
}

// int8MatMul keeps the last input's quantized rows in the kernel's memory and reuses them when the
// next product has the same values (q, k and v projections of one input): never stale values.
describe.each(['cpu', 'wasm'] as const)('int8MatMul reusing quantized rows on %s', (backend) => {
  let [wq, wk, wv] = [] as unknown as [Int8Weight, Int8Weight, Int8Weight];
  beforeAll(async () => {
    await useTfjsBackend(backend);
    [wq, wk, wv] = [0, 1, 2].map((i) => quantizeWeightPerChannel(randomNormal([40, 30 + i], 0, 0.1, 'float32', 20 + i))) as [Int8Weight, Int8Weight, Int8Weight];
  });
  afterAll(() => useTfjsBackend('cpu'));

  it('gives each product of one input (and of a reshape of it) its exact numbers', () => {
    const x = randomNormal([3, 5, 40], 0, 1, 'float32', 1);
    for (const w of [wq, wk, wv, wq]) expect(Array.from(int8MatMul(x, w, undefined, { kernel: 'simd' }).dataSync())).toEqual(expected(x, w));
    const flat = reshape(x, [15, 40]);
    expect(Array.from(int8MatMul(flat, wk, undefined, { kernel: 'simd' }).dataSync())).toEqual(expected(flat, wk));
  });

  it('never reuses across different inputs, interleaved, of equal or different row counts', () => {
    const xs = [randomNormal([6, 40], 0, 1, 'float32', 2), randomNormal([6, 40], 0, 1, 'float32', 3), randomNormal([9, 40], 0, 1, 'float32', 4)];
    for (const order of [[0, 1, 0, 2, 2, 1], [2, 0, 0, 1]]) {
      for (const i of order) expect(Array.from(int8MatMul(xs[i]!, wv, undefined, { kernel: 'simd' }).dataSync()), `input ${i}`).toEqual(expected(xs[i]!, wv));
    }
  });

  it('sees the new values of a Variable after assign', () => {
    const v = variable(randomNormal([4, 40], 0, 1, 'float32', 5));
    const before = Array.from(int8MatMul(v, wq, undefined, { kernel: 'simd' }).dataSync());
    v.assign(randomNormal([4, 40], 0, 1, 'float32', 6));
    const after = Array.from(int8MatMul(v, wq, undefined, { kernel: 'simd' }).dataSync());
    expect(after).toEqual(expected(v, wq));
    expect(after).not.toEqual(before);
    v.dispose();
  });

  it('is not fooled by the kernel being used directly in between (its memory rewritten)', () => {
    const x = randomNormal([5, 40], 0, 1, 'float32', 7);
    int8MatMul(x, wq, undefined, { kernel: 'simd' });
    const other = quantizeRows(randomNormal([5, 40], 0, 1, 'float32', 8).dataSync() as Float32Array, 5, 40, 127, 'test', 'x');
    int8Kernel('simd', 'test').accumulate(other.values, wk.values, { rows: 5, cols: wk.outFeatures, depth: 40 });
    int8Kernel('simd', 'test').multiply(other.values, wk.values, { rows: 5, cols: wk.outFeatures, depth: 40 }, other.scales, wk.scales);
    expect(Array.from(int8MatMul(x, wv, undefined, { kernel: 'simd' }).dataSync())).toEqual(expected(x, wv));
  });

  it('after a refused non-finite input, quantizes the next input afresh', () => {
    const x = randomNormal([2, 40], 0, 1, 'float32', 9);
    int8MatMul(x, wq, undefined, { kernel: 'simd' });
    const bad = tensor(Array.from({ length: 80 }, (_, i) => (i === 41 ? Number.NaN : i / 80)), [2, 40]);
    expect(() => int8MatMul(bad, wq, undefined, { kernel: 'simd' })).toThrow(InvalidArgumentError);
    expect(Array.from(int8MatMul(x, wk, undefined, { kernel: 'simd' }).dataSync())).toEqual(expected(x, wk));
  });
});
