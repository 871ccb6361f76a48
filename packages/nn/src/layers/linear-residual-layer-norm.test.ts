import { add, randomNormal } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { Dropout } from './dropout.js';
import { Int8Linear } from './int8-linear.js';
import { LayerNorm } from './layer-norm.js';
import { Linear } from './linear.js';
import { linearResidualLayerNorm } from './linear-residual-layer-norm.js';

describe('linearResidualLayerNorm', () => {
  afterAll(() => useBackend('cpu'));
  const parts = (seed: number) => {
    const linear = new Linear(24, 36, { seed });
    const layerNorm = new LayerNorm(36, { eps: 1e-12 });
    layerNorm.weight!.assign(randomNormal([36], 1, 0.3, 'float32', seed + 1));
    layerNorm.bias!.assign(randomNormal([36], 0, 0.3, 'float32', seed + 2));
    const dropout = new Dropout(0.1).eval();
    return { linear, layerNorm, dropout, x: randomNormal([2, 5, 24], 0, 1, 'float32', seed + 3), residual: randomNormal([2, 5, 36], 0, 2, 'float32', seed + 4) };
  };

  it('fuses into an Int8Linear on wasm: the numbers of LayerNorm(add(...)) bit for bit', async () => {
    await useBackend('wasm');
    const { linear, layerNorm, dropout, x, residual } = parts(1);
    const int8 = Int8Linear.fromLinear(linear).eval();
    const fused = linearResidualLayerNorm(int8, x, residual, layerNorm, dropout);
    const unfused = layerNorm.forward(add(int8.forward(x), residual));
    expect(fused.shape).toEqual([2, 5, 36]);
    expect(Array.from(fused.dataSync())).toEqual(Array.from(unfused.dataSync()));
  });

  it('is layerNorm(dropout(linear(x)) + residual) for a float Linear, and for an Int8Linear whose LayerNorm has no affine parameters', async () => {
    await useBackend('cpu');
    const { linear, layerNorm, dropout, x, residual } = parts(2);
    expect(Array.from(linearResidualLayerNorm(linear, x, residual, layerNorm, dropout).dataSync())).toEqual(Array.from(layerNorm.forward(add(linear.forward(x), residual)).dataSync()));
    const plain = new LayerNorm(36, { elementwiseAffine: false });
    const int8 = Int8Linear.fromLinear(linear).eval();
    expect(Array.from(linearResidualLayerNorm(int8, x, residual, plain, dropout).dataSync())).toEqual(Array.from(plain.forward(add(int8.forward(x), residual)).dataSync()));
  });

  it('refuses what is not a Linear, a LayerNorm or a Dropout, with typed errors', async () => {
    await useBackend('cpu');
    const { linear, layerNorm, dropout, x, residual } = parts(3);
    expect(() => linearResidualLayerNorm({} as Linear, x, residual, layerNorm, dropout)).toThrow(/'linear' must be a Linear or an Int8Linear/);
    expect(() => linearResidualLayerNorm(linear, x, residual, {} as LayerNorm, dropout)).toThrow(/'layerNorm' must be a LayerNorm/);
    expect(() => linearResidualLayerNorm(linear, x, residual, layerNorm, null as never)).toThrow(/'dropout' must be a Dropout/);
  });
});
