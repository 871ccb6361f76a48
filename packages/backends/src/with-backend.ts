import { engine, setBackend } from '@tensorflow/tfjs-core';
import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { parseBackendName } from './backend-name.js';
import { checkUseBackendOptions } from './check-use-backend-options.js';
import { exclusively } from './backend-queue.js';
import { activateBackend } from './use-backend.js';
import type { UseBackendOptions } from './use-backend-options.js';

/**
 * Runs `fn` with `name` as the active backend, then restores the backend that was active before
 * (even if `fn` throws).
 *
 * Concurrency: tfjs has one global backend, so overlapping `withBackend` (and `useBackend`) calls
 * queue and run one after another in call order; each `fn` sees its own backend from start to end
 * and the previous backend is always restored. A `withBackend` inside another's `fn` runs at once
 * (in Node, and before `fn`'s first `await` everywhere; in a browser, do not nest one after an
 * `await` — it would wait for the outer call). attnkit's own asynchronous operations
 * (`compareBackends`, loaders, `SentenceEncoder.encode`) do not queue: each keeps the backend it
 * started on through `callBackend`.
 *
 * @example
 * const onWasm = await withBackend('wasm', () => tf.tidy(() => tf.matMul(a, b).arraySync()));
 */
export function withBackend<T>(name: string, fn: () => T | Promise<T>, options: UseBackendOptions = {}): Promise<T> {
  try {
    if (typeof fn !== 'function') throw new InvalidArgumentError({ caller: 'withBackend', argument: 'fn', expected: 'a function to run on the backend', received: describeValue(fn) });
    parseBackendName(name);
    checkUseBackendOptions(options, 'withBackend');
  } catch (error) {
    return Promise.reject(error); // checked before the queue: the backend is never switched for a call that cannot run
  }
  return exclusively(async () => {
    const previous: unknown = engine().backendName; // undefined or null before any backend was set
    await activateBackend(name, options);
    try {
      return await fn();
    } finally {
      if (typeof previous === 'string' && previous !== engine().backendName) await setBackend(previous);
    }
  });
}
