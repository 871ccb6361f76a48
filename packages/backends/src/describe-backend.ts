import { engine } from '@tensorflow/tfjs-core';
import { ADAPTERS } from './adapters/index.js';
import { parseBackendName } from './backend-name.js';
import type { BackendCapabilities } from './capabilities.js';
import { detectEnvironment } from '@attnkit/errors';
import { missingKernels } from './required-kernels.js';
import { assertBackendReady } from './assert-backend-ready.js';

/**
 * The capability report of the active backend (the one the last `useBackend` selected).
 *
 * @example
 * await useBackend('wasm');
 * const { wasm } = await describeBackend(); // { binary: 'tfjs-backend-wasm-simd.wasm', threadCount: 1, ... }
 */
export async function describeBackend(): Promise<BackendCapabilities> {
  assertBackendReady('describeBackend');
  const backend = parseBackendName(engine().backendName);
  const description = await ADAPTERS[backend].describe();
  return {
    backend,
    environment: detectEnvironment(),
    missingKernels: missingKernels(backend),
    filledKernels: ADAPTERS[backend].fillKernels(),
    ...description,
  };
}
