import { describe, expect, it } from 'vitest';
import { describeBackend } from './describe-backend.js';
import { BackendNotReadyError } from './errors/backend-not-ready-error.js';
import { useBackend } from './use-backend.js';

describe('describeBackend', () => {
  it('needs a ready backend', async () => {
    await expect(describeBackend()).rejects.toThrow(BackendNotReadyError);
  });
  it('reports the active backend, whichever was selected last', async () => {
    await useBackend('wasm');
    await useBackend('cpu');
    expect(await describeBackend()).toEqual({ backend: 'cpu', environment: 'node', floatPrecision: 32, missingKernels: [], filledKernels: [] });
  });
});
