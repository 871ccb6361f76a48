/**
 * Runs `fn` while `navigator.hardwareConcurrency` reads `cores`, then restores the real value.
 *
 * Why: tfjs-backend-wasm computes `num_cores = hardwareConcurrency / 2` when the module
 * instantiates (assuming two hardware threads per core) and caps XNNPACK's pool at it, so a
 * 2-vCPU machine gets 1 thread whatever `setThreadsCount` asked for. Shadowing the value during
 * instantiation lets the requested count through. Outside browsers it just runs `fn`.
 *
 * @example
 * await withLogicalCores(4, () => tf.setBackend('wasm')); // allows 2 threads on 2 cores
 */
export async function withLogicalCores<T>(cores: number, fn: () => Promise<T>): Promise<T> {
  const nav = (globalThis as { navigator?: object }).navigator;
  if (nav === undefined || Object.prototype.hasOwnProperty.call(nav, 'hardwareConcurrency')) return fn();
  Object.defineProperty(nav, 'hardwareConcurrency', { configurable: true, get: () => cores });
  try {
    return await fn();
  } finally {
    delete (nav as { hardwareConcurrency?: number }).hardwareConcurrency;
  }
}
