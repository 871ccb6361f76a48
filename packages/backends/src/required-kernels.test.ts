import { UnknownBackendError } from './errors/unknown-backend-error.js';
import { describe, expect, it } from 'vitest';
import { missingKernels, REQUIRED_KERNELS } from './required-kernels.js';
import { useBackend } from './use-backend.js';

describe('missingKernels', () => {
  it('finds nothing missing on cpu and only Einsum on wasm', async () => {
    await useBackend('cpu');
    await useBackend('wasm');
    expect(missingKernels('cpu')).toEqual([]);
    expect(missingKernels('wasm')).toEqual(['Einsum']);
  });
  it('reports every kernel missing for a backend that is not registered, and refuses a name that is no backend', () => {
    expect(missingKernels('webgpu')).toEqual([...REQUIRED_KERNELS]); // not loaded in Node
    expect(() => missingKernels('nonexistent')).toThrow(UnknownBackendError);
  });
});
