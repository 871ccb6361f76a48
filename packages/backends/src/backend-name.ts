import { describeValue } from '@attnkit/errors';
import { UnknownBackendError } from './errors/unknown-backend-error.js';

/** Every backend attnkit has an adapter for, fastest-to-set-up first. */
export const BACKEND_NAMES = ['cpu', 'wasm', 'webgl', 'webgpu'] as const;

/** One of {@link BACKEND_NAMES}. */
export type BackendName = (typeof BACKEND_NAMES)[number];

/**
 * Narrows an arbitrary string to a {@link BackendName}, or throws {@link UnknownBackendError}.
 *
 * @example
 * const name = parseBackendName(process.argv[2] ?? 'wasm');
 */
export function parseBackendName(name: unknown): BackendName {
  if (typeof name === 'string' && (BACKEND_NAMES as readonly string[]).includes(name)) {
    return name as BackendName;
  }
  throw new UnknownBackendError(typeof name === 'object' && name !== null ? describeValue(name) : String(name), BACKEND_NAMES); // a tensor's String() would read it (and throw when it is disposed)
}
