import { randomNormal, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { freezeInt8Weight, isFrozenInt8Weight } from './frozen-int8-weight.js';
import { int8Kernel, int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import type { Int8Weight } from './int8-weight.js';
import { quantizeRows } from './quantize-rows.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';
import type { WasmInt8Gemm } from './wasm-int8-gemm.js';

/** The exact expected output from x and the given int8 values (never from the kernel's memory). */
function expected(x: Tensor, values: Int8Array, scales: Float32Array, [depth, cols]: [number, number], levels: 127 | 63): number[] {
  const rows = x.size / depth;
  const q = quantizeRows(x.dataSync(), rows, depth, levels, 'test', 'x');
  return Array.from(dequantizeAccumulators(int8MatMulReference(q.values, values, { rows, cols, depth }), q.scales, scales));
}

describe('freezeInt8Weight', () => {
  beforeAll(() => useTfjsBackend('cpu'));

  it('keeps a private copy: the arrays it was made from and the copies it reads may change, it does not', () => {
    const weight = quantizeWeightPerChannel(randomNormal([12, 5], 0, 0.1, 'float32', 3));
    const original = weight.values.slice();
    const frozen = freezeInt8Weight(weight);
    expect(isFrozenInt8Weight(frozen)).toBe(true);
    expect(isFrozenInt8Weight(weight)).toBe(false);
    expect([frozen.inFeatures, frozen.outFeatures]).toEqual([12, 5]);
    weight.values.fill(1);
    frozen.values.fill(2);
    frozen.scales.fill(0);
    expect(Array.from(frozen.values)).toEqual(Array.from(original));
    expect(Array.from(frozen.scales)).toEqual(Array.from(weight.scales));
    expect(freezeInt8Weight(frozen)).toBe(frozen);
    expect(Object.isFrozen(frozen)).toBe(true);
  });

  it('refuses what is no Int8Weight, naming it', () => {
    expect(() => freezeInt8Weight(null as never)).toThrow(/^freezeInt8Weight: 'weight' must be an Int8Weight .*; received null\.$/);
    expect(() => freezeInt8Weight({ values: new Int8Array(3), scales: new Float32Array(2), inFeatures: 2, outFeatures: 2 })).toThrow(/^freezeInt8Weight: 'weight' must be values of length M·K = 2·2 = 4/);
  });
});

describe.each(int8Kernels().supported.filter((k) => k !== 'js'))('int8MatMul of a frozen weight, %s kernel', (name) => {
  const kernel = () => int8Kernel(name, 'test') as WasmInt8Gemm;
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it('gives the exact numbers of its values at every product, packing it once and keeping its panel only (no copy of its bytes), leaking nothing', async () => {
    for (const [rows, depth, cols] of [[1, 33, 7], [1, 576, 131], [4, 40, 9]] as const) {
      const x = randomNormal([rows, depth], 0, 1, 'float32', rows + depth);
      const plain = quantizeWeightPerChannel(randomNormal([depth, cols], 0, 0.1, 'float32', cols));
      const frozen = freezeInt8Weight(plain);
      const want = expected(x, plain.values, plain.scales, [depth, cols], kernel().activationLevels);
      const before = kernel().keptWeights;
      expect(Array.from(int8MatMul(x, frozen, undefined, { kernel: name }).dataSync())).toEqual(want);
      const frozenBytes = kernel().keptWeights.bytes - before.bytes;
      expect(Array.from(int8MatMul(x, plain, undefined, { kernel: name }).dataSync())).toEqual(want); // the plain weight: its own panel, and a copy of its bytes to compare
      expect(kernel().keptWeights.bytes - before.bytes - frozenBytes).toBe(frozenBytes + Math.ceil((cols * depth) / 16) * 16);
      for (let round = 0; round < 3; round++) {
        expect(Array.from(int8MatMul(x, frozen, undefined, { kernel: name }).dataSync())).toEqual(want);
        expect(Array.from(int8MatMul(x, plain, undefined, { kernel: name }).dataSync())).toEqual(want);
      }
      expect(kernel().keptWeights.count - before.count).toBe(2);
      expect(await leaksOf(() => int8MatMul(x, frozen, undefined, { kernel: name }).dispose())).toEqual({ tensors: 0, bytes: 0 });
      x.dispose();
    }
  });

  it('is not changed by writing the arrays it reads out, nor the ones it was made from', () => {
    const x = tensor(Array.from({ length: 48 }, (_, i) => Math.sin(i)), [1, 48]);
    const plain = quantizeWeightPerChannel(randomNormal([48, 10], 0, 0.1, 'float32', 7));
    const values = plain.values.slice();
    const frozen = freezeInt8Weight(plain);
    const want = expected(x, values, plain.scales, [48, 10], kernel().activationLevels);
    expect(Array.from(int8MatMul(x, frozen, undefined, { kernel: name }).dataSync())).toEqual(want);
    plain.values.fill(127);
    frozen.values.fill(127);
    expect(Array.from(int8MatMul(x, frozen, undefined, { kernel: name }).dataSync())).toEqual(want);
  });
});

