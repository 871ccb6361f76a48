/** Names of the three binaries shipped by `@tensorflow/tfjs-backend-wasm`. */
export const WASM_BINARY_NAMES = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
] as const;

/** One of {@link WASM_BINARY_NAMES}. */
export type WasmBinaryName = (typeof WASM_BINARY_NAMES)[number];

/** Options of `useBackend`. Each applies only to the backend named in its doc. */
export interface UseBackendOptions {
  /**
   * wasm: where the `.wasm` binaries live — a directory path or URL prefix ending in `/`, or a
   * map from binary name to its own URL. Node defaults to the installed package's `dist/`; browsers
   * default to the folder the `attnkitWasm()` Vite plugin serves. Never a CDN.
   */
  readonly wasmPaths?: string | Readonly<Record<WasmBinaryName, string>>;
  /**
   * wasm: threads for XNNPACK where the threaded binary loads (a cross-origin-isolated page).
   * Defaults to the logical cores attnkit's kernel workers leave (`defaultKernelThreads`), at least 1
   * and at most 8: the hand-written kernels run the products and attention on their own workers, and
   * XNNPACK's pool beside them on the same cores slows decoding. Elsewhere wasm runs one thread;
   * the report's `wasm.threadCount` always says what was achieved. Fixed at first initialisation.
   */
  readonly numThreads?: number;
}
