import { WasmBinariesMissingError } from '../errors/wasm-binaries-missing-error.js';
import { nodeBuiltin } from '@attnkit/errors';
import type { UseBackendOptions, WasmBinaryName } from '../use-backend-options.js';
import { WASM_PACKAGE } from './backend-packages.js';
import { missingPackageError } from './load-backend-package.js';

/**
 * The `dist/` folder of the installed `@tensorflow/tfjs-backend-wasm`, with a trailing `/`.
 * Throws BackendPackageMissingError (from `caller`) when the package is not installed.
 */
export function installedWasmDirectory(caller = 'useBackend'): string {
  if (!WASM_PACKAGE.installed()) throw missingPackageError(WASM_PACKAGE, caller);
  const { dirname } = nodeBuiltin('node:path');
  const require = nodeBuiltin('node:module').createRequire(import.meta.url);
  return dirname(require.resolve(`${WASM_PACKAGE.name}/dist/tfjs-backend-wasm.wasm`)) + '/';
}

/**
 * Node: the location tfjs should read `binary` from — the installed package by default — after
 * checking that the file is really there.
 */
export function resolveWasmLocationNode(
  requested: UseBackendOptions['wasmPaths'],
  binary: WasmBinaryName,
): string | Record<WasmBinaryName, string> {
  const location = requested ?? installedWasmDirectory();
  const file = typeof location === 'string' ? nodeBuiltin('node:path').join(location, binary) : location[binary];
  if (!nodeBuiltin('node:fs').existsSync(file)) {
    throw new WasmBinariesMissingError(
      [file],
      requested === undefined ? 'the installed @tensorflow/tfjs-backend-wasm has no such file' : 'from wasmPaths',
    );
  }
  return typeof location === 'string' && !location.endsWith('/') ? `${location}/` : location;
}
