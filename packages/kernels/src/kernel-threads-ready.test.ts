import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { kernelThreads, kernelThreadsReady } from './kernel-threads.js';

// A fresh module: nothing started, nothing chosen.
describe('kernelThreadsReady in a fresh process', () => {
  it('starts the default count (the logical cores, at most 4) and resolves once the workers wait', async () => {
    expect(kernelThreads()).toMatchObject({ threads: 1, state: 'off' });
    const threads = Math.min(4, availableParallelism());
    expect(await kernelThreadsReady()).toEqual(threads > 1 ? { threads, requested: threads, state: 'ready' } : { threads: 1, requested: 1, state: 'off', reason: 'one thread was asked for' });
    expect(kernelThreads().threads).toBe(threads);
  });
});
