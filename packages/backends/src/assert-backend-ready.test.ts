import { engine, setBackend } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { assertBackendReady } from './assert-backend-ready.js';
import { BackendNotReadyError } from './errors/backend-not-ready-error.js';
import { useBackend } from './use-backend.js';

describe('assertBackendReady', () => {
  // Must stay the first test: vitest gives every test file a fresh tfjs engine with no backend.
  it('throws a typed error before any backend was selected (tfjs would silently pick one)', () => {
    expect(engine().backendNames()).toEqual([]);
    const error = (() => { try { assertBackendReady('scaledDotProductAttention'); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(BackendNotReadyError);
    expect((error as Error).message).toBe(
      "scaledDotProductAttention: no backend is ready (no backend has been selected). Call `await useBackend('cpu' | 'wasm' | 'webgl' | 'webgpu')` from @attnkit/backends and wait for it before calling attnkit blocks.",
    );
  });

  it('throws while a backend is still initialising', async () => {
    await import('@tensorflow/tfjs-backend-wasm'); // wasm initialises asynchronously
    const pending = setBackend('wasm'); // not awaited: the classic mistake
    const error = (() => { try { assertBackendReady('myBlock'); } catch (e) { return e; } })();
    expect((error as BackendNotReadyError).state).toBe('initialising');
    expect((error as Error).message).toMatch(/^myBlock: no backend is ready \(a backend is still initialising\)\./);
    expect(await pending).toBe(true);
  });

  it('passes once useBackend resolved', async () => {
    await useBackend('cpu');
    expect(() => assertBackendReady('myBlock')).not.toThrow();
  });
});
