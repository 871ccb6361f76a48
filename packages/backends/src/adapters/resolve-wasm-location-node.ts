import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { WasmBinariesMissingError } from '../errors/wasm-binaries-missing-error.js';
import type { UseBackendOptions, WasmBinaryName } from '../use-backend-options.js';

/** The `dist/` folder of the installed `@tensorflow/tfjs-backend-wasm`, with a trailing `/`. */
export function installedWasmDirectory(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + '/';
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
  const file = typeof location === 'string' ? join(location, binary) : location[binary];
  if (!existsSync(file)) {
    throw new WasmBinariesMissingError(
      [file],
      requested === undefined ? 'the installed @tensorflow/tfjs-backend-wasm has no such file' : 'from wasmPaths',
    );
  }
  return typeof location === 'string' && !location.endsWith('/') ? `${location}/` : location;
}
