import { nodeBuiltin } from '@attnkit/errors';

/**
 * Runs `fn` while `os.cpus()` reports `count` CPUs, then restores it.
 *
 * Why: tfjs-backend-wasm sizes its thread cap as `os.cpus().length / 2` when the module
 * instantiates (assuming two hardware threads per core), so 2 cores would give 1 thread.
 *
 * @example
 * await withNodeCpus(4, () => tf.setBackend('wasm')); // allows 2 threads on 2 cores
 */
export async function withNodeCpus<T>(count: number, fn: () => Promise<T>): Promise<T> {
  const os = nodeBuiltin('node:os'); // the module object tfjs itself requires (an ESM namespace would be read-only)
  const cpus = os.cpus;
  const one = cpus()[0];
  os.cpus = () => (one === undefined ? [] : Array.from({ length: count }, () => one));
  try {
    return await fn();
  } finally {
    os.cpus = cpus;
  }
}
