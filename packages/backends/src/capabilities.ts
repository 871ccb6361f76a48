import type { BackendName } from './backend-name.js';
import type { RuntimeEnvironment } from '@attnkit/errors';

/** What the wasm backend really runs with. */
export interface WasmCapabilities {
  /** The binary that was loaded, e.g. `'tfjs-backend-wasm-simd.wasm'`. */
  readonly binary: string;
  readonly simd: boolean;
  /** Whether the threaded binary was loaded (needs cross-origin isolation in browsers). */
  readonly threads: boolean;
  /** Threads XNNPACK actually uses (1 unless the threaded build runs). */
  readonly threadCount: number;
  /** `globalThis.crossOriginIsolated`, or `undefined` in Node. */
  readonly crossOriginIsolated: boolean | undefined;
}

/** What the WebGL backend really runs with. */
export interface WebglCapabilities {
  readonly version: number;
  /** Whether float32 textures can be rendered to; when false, storage is half-float. */
  readonly renderFloat32: boolean;
  readonly maxTextureSize: number;
  /** `gl.RENDERER` (unmasked when the browser allows it). */
  readonly renderer: string;
}

/** What the WebGPU backend really runs with. */
export interface WebgpuCapabilities {
  readonly vendor: string;
  readonly architecture: string;
  readonly maxStorageBufferBindingSize: number;
}

/**
 * The capability report returned by `useBackend`: enough to decide which tolerances and fill
 * values are safe, and to tell a user what their machine gives them.
 *
 * @example
 * const caps = await useBackend('webgl');
 * if (caps.floatPrecision === 16) console.warn('half-float textures: expect ~1e-3 errors');
 */
export interface BackendCapabilities {
  readonly backend: BackendName;
  readonly environment: RuntimeEnvironment;
  /** Bits of float precision the backend computes and stores with: 32, or 16 for half-float WebGL. */
  readonly floatPrecision: 16 | 32;
  /** Kernels attnkit blocks rely on that this backend lacks (`Einsum` on wasm); blocks avoid them. */
  readonly missingKernels: readonly string[];
  /** Kernels attnkit registered on the backend: wasm's wrong `_FusedMatMul` (bias with transposes) and its missing `UnsortedSegmentSum`. */
  readonly filledKernels: readonly string[];
  readonly wasm?: WasmCapabilities;
  readonly webgl?: WebglCapabilities;
  readonly webgpu?: WebgpuCapabilities;
}
