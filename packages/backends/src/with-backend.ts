import { engine, setBackend } from '@tensorflow/tfjs-core';
import { useBackend } from './use-backend.js';
import type { UseBackendOptions } from './use-backend-options.js';

/**
 * Runs `fn` with `name` as the active backend, then restores the backend that was active before
 * (even if `fn` throws).
 *
 * @example
 * const onWasm = await withBackend('wasm', () => tf.tidy(() => tf.matMul(a, b).arraySync()));
 */
export async function withBackend<T>(
  name: string,
  fn: () => T | Promise<T>,
  options: UseBackendOptions = {},
): Promise<T> {
  const previous: unknown = engine().backendName; // undefined or null before any backend was set
  await useBackend(name, options);
  try {
    return await fn();
  } finally {
    if (typeof previous === 'string' && previous !== name) await setBackend(previous);
  }
}
