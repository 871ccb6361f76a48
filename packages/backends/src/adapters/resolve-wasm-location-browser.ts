import { WasmBinariesMissingError } from '../errors/wasm-binaries-missing-error.js';
import type { UseBackendOptions, WasmBinaryName } from '../use-backend-options.js';

declare const __ATTNKIT_WASM_BASE__: string | undefined;

/** The URL prefix set by the `attnkitWasm()` Vite plugin (or by hand on `globalThis`), if any. */
export function pluginWasmBase(): string | undefined {
  if (typeof __ATTNKIT_WASM_BASE__ === 'string') return __ATTNKIT_WASM_BASE__;
  const manual = (globalThis as { __ATTNKIT_WASM_BASE__?: unknown }).__ATTNKIT_WASM_BASE__;
  return typeof manual === 'string' ? manual : undefined;
}

/**
 * Browser: the location tfjs should fetch `binary` from — `wasmPaths`, else the plugin's folder on
 * this origin — after checking with a HEAD request that it is served.
 */
export async function resolveWasmLocationBrowser(
  requested: UseBackendOptions['wasmPaths'],
  binary: WasmBinaryName,
): Promise<string | Record<WasmBinaryName, string>> {
  const location = requested ?? pluginWasmBase();
  if (location === undefined) {
    throw new WasmBinariesMissingError([binary], 'no wasmPaths was given and the attnkitWasm() Vite plugin is not installed');
  }
  const url = typeof location === 'string' ? `${location}${binary}` : location[binary];
  let status: string;
  try {
    const response = await fetch(url, { method: 'HEAD' });
    if (response.ok) return location;
    status = `HTTP ${response.status}`;
  } catch (error) {
    status = error instanceof Error ? error.message : String(error);
  }
  throw new WasmBinariesMissingError([url], status);
}
