import { ADAPTERS } from './adapters/index.js';
import { BACKEND_NAMES, type BackendName } from './backend-name.js';

/**
 * The backends this environment can run, in {@link BACKEND_NAMES} order. Probes (a WebGL context,
 * a WebGPU adapter) but initialises nothing.
 *
 * @example
 * await availableBackends(); // Node: ['cpu', 'wasm']; Chromium: ['cpu', 'wasm', 'webgl', ...]
 */
export async function availableBackends(): Promise<BackendName[]> {
  const reasons = await Promise.all(BACKEND_NAMES.map((name) => ADAPTERS[name].unavailableReason()));
  return BACKEND_NAMES.filter((_, i) => reasons[i] === undefined);
}
