import { afterEach, describe, expect, it, vi } from 'vitest';
import { wasmAdapter } from './wasm-adapter.js';

afterEach(() => vi.unstubAllGlobals());

// Initialisation, threads and binaries are covered by use-backend.test.ts and
// wasm-adapter-single-thread.test.ts (wasm initialises once per process).
describe('wasmAdapter', () => {
  it('is available where WebAssembly exists, and says so where it does not', async () => {
    expect(await wasmAdapter.unavailableReason()).toBeUndefined();
    vi.stubGlobal('WebAssembly', undefined);
    expect(await wasmAdapter.unavailableReason()).toBe('this runtime has no WebAssembly');
  });
});
