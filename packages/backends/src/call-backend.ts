import { setBackend } from '@tensorflow/tfjs-core';
import { engineState as state } from '@attnkit/kernels';
import { describeValue, InvalidArgumentError, messageText } from '@attnkit/errors';
import { assertBackendReady } from './assert-backend-ready.js';
import { parseBackendName } from './backend-name.js';
import { BackendNotReadyError } from './errors/backend-not-ready-error.js';

/**
 * Makes `name` the tfjs global backend at once. For a backend that finished initialising,
 * `tf.setBackend` does all its work before its first `await`, so the switch is synchronous.
 */
function switchNow(name: string, caller: string): void {
  if (state().registry[name] === undefined) throw new BackendNotReadyError(caller, 'uninitialised', name);
  void setBackend(name);
}

/**
 * The backend one call started on, kept for the whole call however other async work switches
 * the tfjs global backend in between. See {@link callBackend}.
 */
export interface CallBackend {
  /** The backend's name, e.g. `'wasm'`. */
  readonly name: string;
  /**
   * Runs synchronous tensor work on this backend: switches the tfjs global for the duration of
   * `fn` only and switches back before returning (JavaScript runs `fn` to its end without
   * interleaving, so no other code sees the switch). `fn` must not return a promise.
   */
  run<T>(fn: () => T): T;
  /** Resolves when no backend initialisation is pending (tfjs runs no kernel while one is). */
  settled(): Promise<void>;
}

/**
 * Captures the backend that is active now, for an asynchronous operation: every synchronous
 * stretch of the operation then runs through `run`, on this backend, even if a `useBackend`,
 * `withBackend` or another call switched the global between its awaits. Throws
 * `BackendNotReadyError` when no backend is ready. With `backend`, the call keeps that (already
 * initialised) backend instead of the active one.
 *
 * @example
 * async function embedAll(batches: number[][][]) {
 *   const backend = callBackend('embedAll');           // the backend active at the call
 *   for (const batch of batches) {
 *     await backend.settled();
 *     const out = backend.run(() => model.forward({ inputIds: batch }).lastHiddenState); // [B, T, E]
 *     results.push(await out.data());                  // reads need no pinning
 *     out.dispose();
 *   }
 * }
 */
export function callBackend(caller: string, backend?: string): CallBackend {
  if (backend === undefined) assertBackendReady(caller);
  else if (typeof backend !== 'string') throw new InvalidArgumentError({ caller, argument: 'backend', expected: "the name of an initialised backend ('cpu', 'wasm', 'webgl', 'webgpu')", received: describeValue(backend) });
  else if (state().registry[parseBackendName(backend)] === undefined) throw new BackendNotReadyError(caller, 'uninitialised', backend);
  const name = backend ?? (state().backendName as string);
  return {
    name,
    run<T>(fn: () => T): T {
      if (typeof fn !== 'function') throw new InvalidArgumentError({ caller: `${messageText(caller)} (callBackend.run)`, argument: 'fn', expected: 'a synchronous function to run on the backend', received: describeValue(fn) });
      if (state().pendingBackendInit != null) throw new BackendNotReadyError(caller, 'initialising');
      const previous = state().backendName;
      const switched = previous !== name;
      if (switched) switchNow(name, caller);
      let result: T;
      try {
        result = fn();
      } finally {
        if (switched && typeof previous === 'string') switchNow(previous, caller);
      }
      if (typeof (result as { then?: unknown } | null)?.then === 'function') {
        throw new InvalidArgumentError({ caller: `${messageText(caller)} (callBackend.run)`, argument: 'fn', expected: 'a synchronous function (await outside run)', received: 'a function that returned a promise' });
      }
      return result;
    },
    async settled() {
      for (let pending = state().pendingBackendInit; pending != null; pending = state().pendingBackendInit) {
        await pending.catch(() => undefined);
        await Promise.resolve(); // let setBackend's own continuation finish first
      }
    },
  };
}
