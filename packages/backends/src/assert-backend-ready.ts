import { engine } from '@tensorflow/tfjs-core';
import { BackendNotReadyError } from './errors/backend-not-ready-error.js';

/** The parts of tfjs' Engine that tell whether a backend is ready (not in its public typings). */
interface EngineState {
  backendInstance: unknown;
  pendingBackendInit: unknown;
}

/**
 * Throws {@link BackendNotReadyError} unless a backend has finished initialising. Blocks call it
 * first, so that tfjs never silently picks a backend for the user and never fails with its
 * untyped "has not yet been initialized" error.
 *
 * @example
 * export function myBlock(x: Tensor) { assertBackendReady('myBlock'); ... }
 */
export function assertBackendReady(caller: string): void {
  const state = engine() as unknown as EngineState;
  if (state.pendingBackendInit != null) throw new BackendNotReadyError(caller, 'initialising');
  if (state.backendInstance == null) throw new BackendNotReadyError(caller, 'none');
}
