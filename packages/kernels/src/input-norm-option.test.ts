import { ones, tensor1d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { thrown } from '@attnkit/test-utils';
import { checkInputNorm, inputNormValues } from './input-norm-option.js';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';

beforeAll(() => useTfjsBackend('cpu'));

describe('checkInputNorm and inputNormValues', () => {
  it("accept an RMSNorm and a LayerNorm of K and give the kernel their values", () => {
    const [weight, bias] = [tensor1d([1, 2, 3]), tensor1d([0, 0.5, 1])];
    expect(() => checkInputNorm({ kind: 'rmsNorm', weight, epsilon: 1e-6 }, 3, 'test')).not.toThrow();
    expect(() => checkInputNorm({ kind: 'layerNorm', weight, bias, epsilon: 0 }, 3, 'test')).not.toThrow();
    const values = inputNormValues({ kind: 'layerNorm', weight, bias, epsilon: 1e-5 }, (t) => t.dataSync() as Float32Array);
    expect(values && { kind: values.kind, weight: Array.from(values.weight), bias: Array.from(values.bias!), epsilon: values.epsilon }).toEqual({ kind: 'layerNorm', weight: [1, 2, 3], bias: [0, 0.5, 1], epsilon: 1e-5 });
    expect(inputNormValues(undefined, (t) => t.dataSync() as Float32Array)).toBeUndefined();
    [weight, bias].forEach((t) => t.dispose());
  });

  it('refuse each field that is off with a typed error naming it', () => {
    const w = ones([3]);
    const check = (option: unknown, depth = 3) => thrown(() => checkInputNorm(option as never, depth, 'int8MatMul')).message;
    expect(check({ kind: 'rmsNorm', weight: w, epsilon: 1e-5 }, 4)).toBe("int8MatMul: 'inputNorm.weight' must be a float32 tensor [K] with K = 4 (the last axis of 'x'); received [3].");
    expect(check({ kind: 'rmsNorm', weight: w, epsilon: 0 })).toMatch(/'inputNorm.epsilon' must be a finite number > 0/);
    expect(check({ kind: 'layerNorm', weight: w, bias: w, epsilon: -1 })).toMatch(/'inputNorm.epsilon' must be a finite number ≥ 0/);
    expect(check({ kind: 'layerNorm', weight: w, epsilon: 1e-5 })).toMatch(/'inputNorm.bias' must be a float32 tensor/);
    expect(check({ kind: 'rmsNorm', weight: w, bias: w, epsilon: 1e-5 })).toMatch(/'inputNorm.bias' must be no bias with kind 'rmsNorm'/);
    expect(check({ kind: 'groupNorm', weight: w, epsilon: 1e-5 })).toMatch(/'inputNorm.kind' must be 'rmsNorm' or 'layerNorm'/);
    expect(check({ kind: 'rmsNorm', weight: w, epsilon: 1e-5, eps: 1 })).toMatch(/unknown key 'eps'/);
    expect(check(null)).toMatch(/^int8MatMul: 'inputNorm' must be an object/);
    expect(check({ kind: 'rmsNorm', weight: w, epsilon: 1e-5 }, Number.NaN)).toMatch(/^checkInputNorm: 'depth' must be an integer ≥ 0/);
    w.dispose();
  });
});
