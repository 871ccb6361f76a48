import { InvalidArgumentError, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import type { UseBackendOptions } from './use-backend-options.js';

/**
 * Checks `useBackend`'s and `withBackend`'s options whatever the backend (a bad `numThreads` given with
 * `cpu` is a mistake too): an options object with `wasmPaths` (a folder URL or path, or a record of
 * binary name to URL) and `numThreads` (an integer from 1 to 8), nothing else. Returns the options.
 *
 * @example
 * checkUseBackendOptions({ numThreads: 2 }, 'useBackend'); // { numThreads: 2 }
 * checkUseBackendOptions({ numThreads: 0 }, 'useBackend'); // InvalidArgumentError naming numThreads
 */
export function checkUseBackendOptions(options: unknown, caller: string): UseBackendOptions {
  const given = checkObject(options, { caller, argument: 'options', expected: 'an options object { wasmPaths?, numThreads? }' }) as Record<string, unknown>;
  checkOptionKeys(given, ['wasmPaths', 'numThreads'], caller);
  const { wasmPaths, numThreads } = given;
  if (numThreads !== undefined && (typeof numThreads !== 'number' || !Number.isInteger(numThreads) || numThreads < 1 || numThreads > 8)) {
    throw new InvalidArgumentError({ caller, argument: 'numThreads', expected: 'an integer from 1 to 8 (tfjs-backend-wasm uses at most 8 threads)', received: typeof numThreads === 'number' ? String(numThreads) : describeValue(numThreads) });
  }
  const record = typeof wasmPaths === 'object' && wasmPaths !== null && !Array.isArray(wasmPaths) && Object.getPrototypeOf(wasmPaths) === Object.prototype && Object.values(wasmPaths).every((v) => typeof v === 'string' && v !== '');
  if (wasmPaths !== undefined && !(typeof wasmPaths === 'string' && wasmPaths !== '') && !(record && Object.keys(wasmPaths as object).length > 0)) {
    throw new InvalidArgumentError({ caller, argument: 'wasmPaths', expected: 'a folder URL or path (a non-empty string), or a record of wasm binary name to its URL', received: describeValue(wasmPaths) });
  }
  return given as UseBackendOptions;
}
