import '@tensorflow/tfjs'; // registers gradients
import { erf, grad, mul, range, reshape, slice, sub, tensor, tensor1d, tidy } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { erf64 } from '@attnkit/kernels';
import { useBackend } from '../use-backend.js';

const maxError = (actual: Float32Array, expected: (i: number) => number): number => actual.reduce((m, v, i) => Math.max(m, Math.abs(v - expected(i))), 0);

describe('wasm Erf fill (SIMD, on the backend memory)', () => {
  it('replaces the scalar kernel and is within 2e-7 of float64 erf over 2M points in [-6, 6]', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain('Erf');
    const n = 2_000_001;
    const x = tidy(() => sub(mul(range(0, n), 12 / (n - 1)), 6)); // every point of the grid, both branches and the cap
    const xs = await x.data();
    const y = erf(x);
    const ys = (await y.data()) as Float32Array;
    expect(maxError(ys, (i) => erf64(xs[i]!))).toBeLessThanOrEqual(2e-7);
    expect(maxError(ys, (i) => erf64(xs[i]!))).toBeGreaterThan(0); // an approximation, not a copy of the reference
    [x, y].forEach((t) => t.dispose());
  });

  it('keeps NaN, signed zeros and infinities; saturates large inputs; tiny inputs stay linear', async () => {
    await useBackend('wasm');
    const inputs = [NaN, 0, -0, Infinity, -Infinity, 1e30, -1e30, 4, -3.99, 1e-30, -1e-20, 1, -1, 0.99999994];
    const out = Array.from(await erf(tensor1d(inputs)).data());
    expect(Number.isNaN(out[0])).toBe(true);
    expect([Object.is(out[1], 0), Object.is(out[2], -0)]).toEqual([true, true]);
    expect(out.slice(3, 8)).toEqual([1, -1, 1, -1, 1]);
    expect(out[8]).toBeCloseTo(-1, 7);
    expect(out[9]! / 1e-30).toBeCloseTo(2 / Math.sqrt(Math.PI), 6);
    expect(out[10]! / -1e-20).toBeCloseTo(2 / Math.sqrt(Math.PI), 6);
    for (const i of [11, 12, 13]) expect(Math.abs(out[i]! - erf64(inputs[i]!))).toBeLessThanOrEqual(2e-7); // either side of the branch point
  });

  it('covers every length and shape: tails of 1–15 elements, rank 0, rank 3, slices (other offsets), int32 inputs', async () => {
    await useBackend('wasm');
    const source = tidy(() => sub(mul(range(0, 64), 0.173), 5.3)); // 64 values, both branches
    const values = await source.data();
    for (let length = 0; length <= 40; length++) {
      for (const start of [0, 1, 3]) {
        if (start + length > 64) continue;
        const y = tidy(() => erf(slice(source, start, length)));
        const got = (await y.data()) as Float32Array;
        expect(got.length).toBe(length);
        expect(maxError(got, (i) => erf64(values[start + i]!))).toBeLessThanOrEqual(2e-7);
        y.dispose();
      }
    }
    const scalar = erf(tensor(0.5));
    expect([scalar.shape, Math.abs((await scalar.data())[0]! - erf64(0.5)) <= 2e-7]).toEqual([[], true]);
    const cube = tidy(() => erf(reshape(slice(source, 0, 30), [2, 3, 5])));
    expect([cube.shape, cube.dtype]).toEqual([[2, 3, 5], 'float32']);
    const ints = erf(tensor1d([-2, 0, 3], 'int32'));
    expect(ints.dtype).toBe('float32');
    expect(maxError((await ints.data()) as Float32Array, (i) => erf64([-2, 0, 3][i]!))).toBeLessThanOrEqual(2e-7);
    [source, scalar, cube, ints].forEach((t) => t.dispose());
  });

  it('keeps the gradient (2/√π · exp(-x²)) and leaks nothing', async () => {
    await useBackend('wasm');
    const x = tensor1d([-2, -0.5, 0, 0.7, 1.5, 3]);
    const dx = grad((v) => erf(v))(x);
    const xs = await x.data();
    expect(maxError((await dx.data()) as Float32Array, (i) => (2 / Math.sqrt(Math.PI)) * Math.exp(-xs[i]! * xs[i]!))).toBeLessThanOrEqual(1e-6);
    expect(await leaksOf(() => erf(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, dx].forEach((t) => t.dispose());
  });
});
