import { engineState } from '@attnkit/kernels';
import { BackendNotReadyError } from './errors/backend-not-ready-error.js';

/**
 * Throws {@link BackendNotReadyError} unless a backend has finished initialising. Blocks call it
 * first, so that tfjs never silently picks a backend for the user and never fails with its
 * untyped "has not yet been initialized" error.
 *
 * @example
 * export function myBlock(x: Tensor) { assertBackendReady('myBlock'); ... }
 */
export function assertBackendReady(caller: string): void {
  const state = engineState();
  if (state.pendingBackendInit != null) throw new BackendNotReadyError(caller, 'initialising');
  if (state.backendInstance == null) throw new BackendNotReadyError(caller, 'none');
}
