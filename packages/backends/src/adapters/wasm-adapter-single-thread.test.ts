import { matMul, tidy, tensor } from '@tensorflow/tfjs-core';
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
});
