import { engine } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from './use-backend.js';
import { withBackend } from './with-backend.js';

describe('withBackend', () => {
  it('runs fn on the named backend and restores the previous one, also when fn throws', async () => {
    await useBackend('cpu');
    expect(await withBackend('wasm', () => engine().backendName)).toBe('wasm');
    expect(engine().backendName).toBe('cpu');
    await expect(withBackend('wasm', () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(engine().backendName).toBe('cpu');
  });
  it('leaves the active backend alone when the requested one is unavailable', async () => {
    await useBackend('cpu');
    await expect(withBackend('webgl', () => 1)).rejects.toThrow("backend 'webgl' is not available in node");
    expect(engine().backendName).toBe('cpu');
  });
});
