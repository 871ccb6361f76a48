import { AttnkitError, messageText, messageTexts } from '@attnkit/errors';

/**
 * The tfjs wasm binaries could not be found where attnkit looked for them. attnkit never loads
 * them from a CDN: in Node they come from the installed `@tensorflow/tfjs-backend-wasm`, in the
 * browser from your own origin (the `attnkitWasm()` Vite plugin, or `wasmPaths`).
 *
 * @example
 * await useBackend('wasm', { wasmPaths: '/nowhere/' });
 * // WasmBinariesMissingError: wasm binaries not found: /nowhere/tfjs-backend-wasm-simd.wasm (...)
 */
export class WasmBinariesMissingError extends AttnkitError {
  readonly missing: readonly string[];

  constructor(missing: readonly string[], detail: string) {
    const files = messageTexts(missing);
    super(
      'ATTNKIT_WASM_BINARIES_MISSING',
      `wasm binaries not found: ${files.length > 0 ? files.join(', ') : 'none named'} (${messageText(detail)}). ` +
        'In Node, reinstall @tensorflow/tfjs-backend-wasm or pass wasmPaths: "<dir>/"; in the browser, ' +
        "add attnkitWasm() from '@attnkit/backends/vite' to your Vite config or pass wasmPaths.",
    );
    this.missing = files;
  }
}
