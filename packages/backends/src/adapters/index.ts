import type { BackendName } from '../backend-name.js';
import type { BackendAdapter } from './backend-adapter.js';
import { cpuAdapter } from './cpu-adapter.js';
import { wasmAdapter } from './wasm-adapter.js';
import { webglAdapter } from './webgl-adapter.js';
import { webgpuAdapter } from './webgpu-adapter.js';

/** The adapter of every backend, by name. */
export const ADAPTERS: Readonly<Record<BackendName, BackendAdapter>> = {
  cpu: cpuAdapter,
  wasm: wasmAdapter,
  webgl: webglAdapter,
  webgpu: webgpuAdapter,
};
