import { engine, mul, sigmoid, split, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { kernelRoute } from '../kernel-route.js';
import { SILU_MUL_KERNEL } from './wasm-silu-mul-fill.js';

/** silu(gate) · up in float64 from the float32 rows [gate | up]. */
function reference(x: Float32Array, width: number): Float64Array {
  const out = new Float64Array(x.length / 2);
  for (let r = 0; r < out.length / width; r++) {
    for (let i = 0; i < width; i++) {
      const [g, u] = [x[r * 2 * width + i]!, x[r * 2 * width + width + i]!];
      out[r * width + i] = (g / (1 + Math.exp(-g))) * u;
    }
  }
  return out;
}

describe('SILU_MUL_KERNEL on wasm', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it('equals silu(gate) · up (float64 reference) within a few float32 ulps, over the whole float range, leaking nothing', async () => {
    const gates = [0, -0, 1e-30, -1e-30, 0.5, -0.5, 3, -3, 20, -20, 87, -87, 88.5, -88.5, 100, -100, 1e30, -1e30, ...Array.from({ length: 200 }, (_, i) => (i - 100) / 7.3)];
    const width = gates.length;
    for (const rows of [1, 3]) {
      const values = new Float32Array(rows * 2 * width);
      for (let r = 0; r < rows; r++) gates.forEach((g, i) => { values[r * 2 * width + i] = g; values[r * 2 * width + width + i] = 1 + ((i * 7 + r) % 11) / 5; });
      const x = tensor(values, [rows, 2 * width]);
      const y = engine().runKernel(SILU_MUL_KERNEL, { x }) as Tensor;
      expect(y.shape).toEqual([rows, width]);
      const [got, want] = [await y.data(), reference(values, width)];
      for (let i = 0; i < want.length; i++) {
        const tolerance = 6e-7 * Math.abs(want[i]!) + 1e-37; // silu's float32 rounding (exp within 2 ulp, a division, a product)
        expect(Math.abs(got[i]! - want[i]!), `gate ${gates[i % width]}`).toBeLessThanOrEqual(tolerance);
      }
      expect(await leaksOf(() => (engine().runKernel(SILU_MUL_KERNEL, { x }) as Tensor).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [x, y].forEach((t) => t.dispose());
    }
  });

  it('agrees with the composite it replaces (split, sigmoid, products) to float32 rounding on [B, T, 2F]', async () => {
    const x = tensor(Float32Array.from({ length: 2 * 3 * 10 }, (_, i) => Math.sin(i) * 6), [2, 3, 10]);
    const fused = engine().runKernel(SILU_MUL_KERNEL, { x }) as Tensor;
    const [g, u] = split(x, 2, -1);
    const composite = mul(mul(g!, sigmoid(g!)), u!);
    expect(fused.shape).toEqual([2, 3, 5]);
    const [a, b] = [await fused.data(), await composite.data()];
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(b[i]!)));
  });

  it('gives an empty output for no rows, and is routed only outside gradient recording', () => {
    expect((engine().runKernel(SILU_MUL_KERNEL, { x: tensor([], [0, 6]) }) as Tensor).shape).toEqual([0, 3]);
    expect(kernelRoute('siluMul', [tensor([[1, 2]])]).useKernel).toBe(true);
  });
});
