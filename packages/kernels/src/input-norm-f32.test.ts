import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { inputNormF32 } from './input-norm-f32.js';

const EPS = 1e-5;

describe('inputNormF32', () => {
  it('is RMSNorm and LayerNorm of each row within float32 rounding of float64', () => {
    const [rows, width] = [3, 23];
    const x = Float32Array.from({ length: rows * width }, (_, i) => Math.sin(i * 1.7) * (1 + (i % 5)));
    const weight = Float32Array.from({ length: width }, (_, i) => 0.5 + (i % 3) * 0.25);
    const bias = Float32Array.from({ length: width }, (_, i) => (i % 4) * 0.1 - 0.15);
    const rms = inputNormF32(Float32Array.from(x), { kind: 'rmsNorm', weight, epsilon: EPS }, rows, width);
    const layer = inputNormF32(Float32Array.from(x), { kind: 'layerNorm', weight, bias, epsilon: EPS }, rows, width);
    for (let row = 0; row < rows; row++) {
      const v = Array.from(x.subarray(row * width, (row + 1) * width));
      const ms = v.reduce((s, a) => s + a * a, 0) / width;
      const mean = v.reduce((s, a) => s + a, 0) / width;
      const variance = v.reduce((s, a) => s + (a - mean) ** 2, 0) / width;
      for (let i = 0; i < width; i++) {
        expect(Math.abs(rms[row * width + i]! - (v[i]! / Math.sqrt(ms + EPS)) * weight[i]!)).toBeLessThan(2e-6);
        expect(Math.abs(layer[row * width + i]! - (((v[i]! - mean) / Math.sqrt(variance + EPS)) * weight[i]! + bias[i]!))).toBeLessThan(2e-6);
      }
    }
  });

  it.each([
    ['an unknown kind', { kind: 'batchNorm', weight: new Float32Array(4), epsilon: EPS }, /'values.kind' must be 'rmsNorm' or 'layerNorm'/],
    ['a short weight', { kind: 'rmsNorm', weight: new Float32Array(3), epsilon: EPS }, /values.weight/],
    ['a LayerNorm without bias', { kind: 'layerNorm', weight: new Float32Array(4), epsilon: EPS }, /values.bias/],
    ['a bias on an RMSNorm', { kind: 'rmsNorm', weight: new Float32Array(4), bias: new Float32Array(4), epsilon: EPS }, /values.bias' must be no bias with kind 'rmsNorm'/],
    ['a NaN epsilon', { kind: 'rmsNorm', weight: new Float32Array(4), epsilon: Number.NaN }, /values.epsilon' must be a finite number ≥ 0/],
  ] as const)('refuses %s with a typed error', (_, values, message) => {
    expect(() => inputNormF32(new Float32Array(8), values as never, 2, 4)).toThrow(InvalidArgumentError);
    expect(() => inputNormF32(new Float32Array(8), values as never, 2, 4)).toThrow(message);
  });
});
