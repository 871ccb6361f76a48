import { afterAll, describe, expect, it } from 'vitest';
import { kernelThreads, startKernelThreads } from './kernel-threads.js';
import { expectSameNumbersOnThreads } from './testing/thread-cases.js';

// The test pages are cross-origin isolated: the kernels' workers run here as on a served page.
describe('kernel threads in Chromium', () => {
  afterAll(() => startKernelThreads());

  it('start in a cross-origin-isolated page', async () => {
    expect(globalThis.crossOriginIsolated).toBe(true);
    expect(await startKernelThreads({ threads: 2 })).toEqual({ threads: 2, requested: 2, state: 'ready' });
    expect(kernelThreads().threads).toBe(2);
  });

  it('give every kernel (relaxed SIMD included) the same numbers, bit for bit, on 1, 2 and 3 threads', async () => {
    expect(await expectSameNumbersOnThreads([2, 3])).toBeGreaterThan(30);
  });
});
