import { afterEach, describe, expect, it, vi } from 'vitest';
import { WasmBinariesMissingError } from '../errors/wasm-binaries-missing-error.js';
import { resolveWasmLocationBrowser } from './resolve-wasm-location-browser.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('resolveWasmLocationBrowser', () => {
  it('refuses to guess when there is neither wasmPaths nor the Vite plugin', async () => {
    await expect(resolveWasmLocationBrowser(undefined, 'tfjs-backend-wasm-simd.wasm')).rejects.toThrow(
      'wasm binaries not found: tfjs-backend-wasm-simd.wasm (no wasmPaths was given and the attnkitWasm() Vite plugin is not installed)',
    );
  });
  it('checks the binary with a HEAD request and reports the HTTP status', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    const error = await resolveWasmLocationBrowser('/wasm/', 'tfjs-backend-wasm-simd.wasm').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmBinariesMissingError);
    expect((error as WasmBinariesMissingError).missing).toEqual(['/wasm/tfjs-backend-wasm-simd.wasm']);
    expect((error as Error).message).toContain('(HTTP 404)');
    expect(fetch).toHaveBeenCalledWith('/wasm/tfjs-backend-wasm-simd.wasm', { method: 'HEAD' });
  });
  it('uses the plugin folder (set on globalThis by hand here) and returns it when served', async () => {
    vi.stubGlobal('__ATTNKIT_WASM_BASE__', '/attnkit-wasm/');
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 200 })));
    expect(await resolveWasmLocationBrowser(undefined, 'tfjs-backend-wasm.wasm')).toBe('/attnkit-wasm/');
  });
});
