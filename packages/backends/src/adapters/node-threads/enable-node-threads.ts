import type { WorkerOptions } from 'node:worker_threads';
import { env } from '@tensorflow/tfjs-core';
import { nodeBuiltin } from '@attnkit/errors';
import { WASM_PACKAGE } from '../backend-packages.js';
import { loadBackendPackage } from '../load-backend-package.js';

let enabled = false;

/**
 * Lets tfjs-backend-wasm's threaded build start in Node.
 *
 * tfjs starts each pthread worker from a `blob:` URL, which Node's worker_threads rejects
 * (`ERR_WORKER_PATH`), and treats Node as thread-less. This swaps in a `Worker` class (emscripten
 * looks it up on `globalThis`) that starts blob-URL workers from `pthread-worker.cjs` by file
 * path, handing over the blob's source, and then turns on `WASM_HAS_MULTITHREAD_SUPPORT`. The
 * workers never hold the process open: the main thread waits for them synchronously.
 *
 * @example
 * await enableNodeThreads(); setThreadsCount(2); await tf.setBackend('wasm'); // getThreadsCount() === 2
 */
export async function enableNodeThreads(): Promise<void> {
  if (enabled) return;
  await loadBackendPackage(WASM_PACKAGE, 'useBackend'); // registers the WASM_* flags set below
  const { resolveObjectURL } = nodeBuiltin('node:buffer');
  const { dirname } = nodeBuiltin('node:path');
  const workerFile = nodeBuiltin('node:url').fileURLToPath(new URL('./pthread-worker.cjs', import.meta.url));
  const script = nodeBuiltin('node:module').createRequire(import.meta.url).resolve(WASM_PACKAGE.name);
  class BlobUrlWorker extends nodeBuiltin('node:worker_threads').Worker {
    constructor(url: string | URL, options?: WorkerOptions) {
      const href = String(url);
      const workerScript = href.startsWith('blob:') ? resolveObjectURL(href) : undefined;
      if (workerScript === undefined) super(url, options);
      else super(workerFile, { ...options, workerData: { workerScript, script, directory: `${dirname(script)}/` } });
      this.unref();
    }
    override ref(): void {}
  }
  Object.defineProperty(globalThis, 'Worker', { configurable: true, get: () => BlobUrlWorker, set: () => {} });
  env().set('WASM_HAS_MULTITHREAD_SUPPORT', true);
  enabled = true;
}
