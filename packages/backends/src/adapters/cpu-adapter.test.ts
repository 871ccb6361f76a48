import { engine } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { cpuAdapter } from './cpu-adapter.js';

describe('cpuAdapter', () => {
  it('is available everywhere, selects cpu, reports float32 and fills nothing', async () => {
    expect(await cpuAdapter.unavailableReason()).toBeUndefined();
    await cpuAdapter.initialize({});
    expect(engine().backendName).toBe('cpu');
    expect(await cpuAdapter.describe()).toEqual({ floatPrecision: 32 });
    expect(cpuAdapter.fillKernels()).toEqual([]);
  });
});
