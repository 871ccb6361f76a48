import { ADAPTERS } from './adapters/index.js';
import { BACKEND_NAMES, type BackendName } from './backend-name.js';

/**
 * The backends this environment can run, in {@link BACKEND_NAMES} order. Probes (a WebGL context,
 * a WebGPU adapter) but initialises nothing. In Node a backend whose optional package
 * (`@tensorflow/tfjs-backend-wasm`, ...) is not installed is left out; it is looked up, not loaded.
 * In a browser the bundle decides: a package missing from it shows when `useBackend` loads it.
 *
 * @example
 * await availableBackends(); // Node: ['cpu', 'wasm']; Chromium: ['cpu', 'wasm', 'webgl', ...]
 */
export async function availableBackends(): Promise<BackendName[]> {
  const reasons = await Promise.all(BACKEND_NAMES.map((name) => ADAPTERS[name].unavailableReason()));
  return BACKEND_NAMES.filter((name, i) => reasons[i] === undefined && (ADAPTERS[name].optionalPackage?.installed() ?? true));
}
