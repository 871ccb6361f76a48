import type { WasmBinaryName } from '../use-backend-options.js';

/**
 * The binary tfjs-backend-wasm loads for a given SIMD / threads support (its own rule).
 *
 * @example
 * wasmBinaryFor(true, false); // 'tfjs-backend-wasm-simd.wasm'
 */
export function wasmBinaryFor(simd: boolean, threads: boolean): WasmBinaryName {
  if (simd && threads) return 'tfjs-backend-wasm-threaded-simd.wasm';
  if (simd) return 'tfjs-backend-wasm-simd.wasm';
  return 'tfjs-backend-wasm.wasm';
}
