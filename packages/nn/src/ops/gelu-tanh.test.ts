import { grad, sum, tensor } from '@tensorflow/tfjs-core';
import { kernelRoute } from '@attnkit/kernels';
import { afterAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { geluTanh } from './gelu-tanh.js';

afterAll(() => useBackend('cpu'));

/** The tanh GELU in float64, in the form without cancellation far below zero (x / (1 + exp(−2u)) = 0.5 · x · (1 + tanh(u))). */
const exact = (x: number) => x / (1 + Math.exp(-2 * Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

describe('geluTanh', () => {
  for (const backend of ['cpu', 'wasm'] as const) {
    it(`is the tanh approximation of GELU (float64 formula) within 1e-6 on [-8, 8], and leaks nothing (${backend}${backend === 'wasm' ? ': the fused kernel' : ''})`, async () => {
      await useBackend(backend);
      const xs = Array.from({ length: 1601 }, (_, i) => Math.fround(-8 + i / 100));
      const x = tensor(xs);
      expect(kernelRoute('geluTanh', [x]).useKernel).toBe(backend === 'wasm');
      const y = geluTanh(x);
      expect(maxDifference(await y.data(), xs.map(exact)).maxAbsDiff).toBeLessThan(1e-6);
      expect(await leaksOf(() => geluTanh(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [x, y].forEach((t) => t.dispose());
    });
  }

  it('has its gradient while recording on wasm (the composite, not the inference-only kernel): d/dx at 0 is 0.5', async () => {
    await useBackend('wasm');
    const x = tensor([0, 1, -1]);
    const dx = grad((v) => sum(geluTanh(v)))(x);
    const slope = (v: number) => (exact(v + 1e-4) - exact(v - 1e-4)) / 2e-4;
    expect(maxDifference(await dx.data(), [0.5, slope(1), slope(-1)]).maxAbsDiff).toBeLessThan(1e-4);
    [x, dx].forEach((t) => t.dispose());
  });

  it('refuses a non-float32 tensor, naming the argument', () => {
    expect(() => geluTanh(tensor([1], [1], 'int32'))).toThrow(/geluTanh.*x/s);
  });
});
