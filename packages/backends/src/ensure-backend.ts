import { InvalidArgumentError, describeValue, detectEnvironment } from '@attnkit/errors';
import { engineState } from '@attnkit/kernels';
import { BackendNotReadyError } from './errors/backend-not-ready-error.js';
import { exclusively } from './backend-queue.js';
import { activateBackend } from './use-backend.js';

/**
 * For the async entry points that load a model: waits for a backend being initialised; in Node,
 * when none was ever chosen, brings up wasm (`useBackend('wasm')`, every core) rather than letting
 * a first tensor op start tfjs' pure-JavaScript cpu backend, which is one to two orders of
 * magnitude slower for transformer models. cpu stays one `useBackend('cpu')` away. In a browser,
 * where wasm needs the binaries served, no backend is picked: `BackendNotReadyError` as before.
 *
 * @example
 * await ensureBackend('loadEncoder'); // Node, nothing chosen yet: wasm is now the backend
 */
export async function ensureBackend(caller: string): Promise<void> {
  if (typeof caller !== 'string' || caller === '') throw new InvalidArgumentError({ caller: 'ensureBackend', argument: 'caller', expected: 'the name of the calling function, for messages (a non-empty string)', received: describeValue(caller) });
  const state = engineState();
  if (state.backendInstance != null && state.pendingBackendInit == null) return;
  // queued behind any useBackend / withBackend already made (one not awaited yet included)
  await exclusively(async () => {
    if (state.pendingBackendInit != null) await state.pendingBackendInit.catch(() => undefined);
    if (state.backendInstance != null) return;
    if (detectEnvironment() !== 'node') throw new BackendNotReadyError(caller, 'none');
    await activateBackend('wasm');
  });
}
