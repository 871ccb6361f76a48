import { ADAPTERS } from './adapters/index.js';
import { availableBackends } from './available-backends.js';
import { parseBackendName } from './backend-name.js';
import type { BackendCapabilities } from './capabilities.js';
import { describeBackend } from './describe-backend.js';
import { detectEnvironment } from '@attnkit/errors';
import { BackendUnavailableError } from './errors/backend-unavailable-error.js';
import type { UseBackendOptions } from './use-backend-options.js';
import { exclusively } from './backend-queue.js';
import { checkUseBackendOptions } from './check-use-backend-options.js';

/**
 * Initialises a backend (loading its package on first use), makes it the active tfjs backend and
 * returns what it really offers. Never falls back: a backend this environment lacks gives
 * {@link BackendUnavailableError} listing the ones it has; a backend whose optional package
 * (`@tensorflow/tfjs-backend-wasm`, `-webgl`, `-webgpu`) is not installed gives
 * BackendPackageMissingError with the command that installs it.
 *
 * Calls queue with `withBackend` (see its concurrency note): a `useBackend` made while a
 * `withBackend` runs takes effect after it, so that call's `fn` and its restore are not disturbed.
 *
 * @param name `'cpu' | 'wasm' | 'webgl' | 'webgpu'`
 * @example
 * const caps = await useBackend('wasm');
 * console.log(caps.wasm?.threadCount, caps.missingKernels); // 1 ['Einsum'] in Node
 */
export function useBackend(name: string, options: UseBackendOptions = {}): Promise<BackendCapabilities> {
  try {
    parseBackendName(name);
    checkUseBackendOptions(options, 'useBackend');
  } catch (error) {
    return Promise.reject(error); // checked before the queue, whatever the backend
  }
  return exclusively(() => activateBackend(name, options));
}

/** {@link useBackend} without the queue: for callers that already run exclusively. */
export async function activateBackend(name: string, options: UseBackendOptions = {}): Promise<BackendCapabilities> {
  const backend = parseBackendName(name);
  const adapter = ADAPTERS[backend];
  const reason = await adapter.unavailableReason();
  if (reason !== undefined) {
    throw new BackendUnavailableError({
      requested: backend,
      environment: detectEnvironment(),
      reason,
      available: await availableBackends(),
    });
  }
  await adapter.initialize(options);
  adapter.fillKernels(); // after initialisation: the backend's own kernels are registered by then
  return describeBackend();
}
