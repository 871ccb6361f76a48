import { randomNormal, tensor1d } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkResidualLayerNorm, residualLayerNormValues } from './residual-layer-norm-option.js';

describe('the residualLayerNorm option', () => {
  beforeAll(() => useTfjsBackend('cpu'));
  afterAll(() => useTfjsBackend('cpu'));

  it('accepts tensors of the output shape and [M], and reads their values (gamma, beta, epsilon, then the residual)', () => {
    const option = { residual: randomNormal([2, 3, 4]), gamma: tensor1d([1, 2, 3, 4]), beta: tensor1d([0, 0, 1, 1]), epsilon: 1e-5 };
    expect(() => checkResidualLayerNorm(option, [2, 3, 4], 'test')).not.toThrow();
    const order: string[] = [];
    const values = residualLayerNormValues(option, (t) => {
      order.push(t === option.residual ? 'residual' : t === option.gamma ? 'gamma' : t === option.beta ? 'beta' : 'other');
      return t.dataSync() as Float32Array;
    });
    expect(order).toEqual(['gamma', 'beta', 'residual']); // each through read (on tfjs-wasm a view, no copy)
    expect(Array.from(values!.gamma)).toEqual([1, 2, 3, 4]);
    expect(values!.epsilon).toBe(1e-5);
    expect(values!.residual).toHaveLength(24);
    expect(residualLayerNormValues(undefined, () => new Float32Array())).toBeUndefined();
  });

  it.each([
    ['not an object', 1, /'residualLayerNorm' must be an object \{ residual, gamma, beta, epsilon \}/],
    ['a residual of another rank', { residual: 'r23', gamma: 'g3', beta: 'g3', epsilon: 0 }, /output's shape \[2, 3\]; received \[2, 3, 1\]/],
    ['a beta of another length', { residual: 'r', gamma: 'g3', beta: 'g4', epsilon: 0 }, /'residualLayerNorm.beta' must be a float32 tensor \[M\] with M = 3; received \[4\]/],
    ['an infinite epsilon', { residual: 'r', gamma: 'g3', beta: 'g3', epsilon: Infinity }, /'residualLayerNorm.epsilon' must be a finite number ≥ 0/],
  ] as const)('refuses %s with InvalidArgumentError', (_, raw, message) => {
    const tensors: Record<string, unknown> = { r: randomNormal([2, 3]), r23: randomNormal([2, 3, 1]), g3: randomNormal([3]), g4: randomNormal([4]) };
    const option = typeof raw === 'object' ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? tensors[v] : v])) : raw;
    expect(() => checkResidualLayerNorm(option as never, [2, 3], 'test')).toThrow(InvalidArgumentError);
    expect(() => checkResidualLayerNorm(option as never, [2, 3], 'test')).toThrow(message);
  });

  it('refuses an output shape that is no non-empty list of sizes', () => {
    const option = { residual: tensor1d([1, 2]), gamma: tensor1d([1, 1]), beta: tensor1d([0, 0]), epsilon: 1e-5 };
    for (const outShape of [undefined, null, [], [2, Number.NaN], 'x']) {
      const error = thrown(() => checkResidualLayerNorm(option, outShape as never, 'f32MatMul'));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^checkResidualLayerNorm: 'outShape' must be the product's output shape \[\.\.\., M\]/);
    }
    Object.values(option).forEach((t) => typeof t === 'object' && t.dispose());
  });
});
