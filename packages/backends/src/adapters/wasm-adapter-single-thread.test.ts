import { erf, matMul, tidy, tensor, tensor1d } from '@tensorflow/tfjs-core';
import { erf64 } from '@attnkit/kernels';
import { describe, expect, it } from 'vitest';
import { useBackend } from '../use-backend.js';

// Its own file: wasm initialises once per process, and vitest gives each file a fresh one.
describe('wasm with numThreads: 1 (Node)', () => {
  it('loads the plain SIMD binary with no pthread workers', async () => {
    const caps = await useBackend('wasm', { numThreads: 1 });
    expect(caps.wasm).toEqual({ binary: 'tfjs-backend-wasm-simd.wasm', simd: true, threads: false, threadCount: 1, crossOriginIsolated: undefined });
    expect((globalThis as { Worker?: unknown }).Worker).toBeUndefined();
    const y = tidy(() => matMul(tensor([[1, 2]]), tensor([[3], [4]])));
    expect(await y.data()).toEqual(Float32Array.of(11));
    y.dispose();
  });

  it('runs the SIMD Erf fill on the unshared memory of the single-threaded binary', async () => {
    const caps = await useBackend('wasm', { numThreads: 1 });
    expect(caps.filledKernels).toContain('Erf');
    const x = [-4.5, -1, -0.3, 0, 0.8, 1, 2.2, 7];
    const y = erf(tensor1d(x));
    const got = Array.from(await y.data());
    expect(got.map((v, i) => Math.abs(v - erf64(x[i]!)) <= 2e-7)).toEqual(x.map(() => true));
    y.dispose();
  });
});
