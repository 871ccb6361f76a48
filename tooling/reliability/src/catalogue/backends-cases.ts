import { useBackend } from '@attnkit/backends';
import { rejects, type CatalogueCase } from './catalogue-case.js';

/** Backends: names, availability, binaries, options. */
export const backendsCases: CatalogueCase[] = [
  rejects('backends', 'unknown backend name', 'UnknownBackendError', "unknown backend 'wsam'; attnkit knows cpu, wasm, webgl, webgpu.", () => useBackend('wsam')),
  rejects('backends', 'webgl in Node', 'BackendUnavailableError', "backend 'webgl' is not available in node: Node.js has no WebGL (run it in a browser). Available here: cpu, wasm.", () => useBackend('webgl')),
  rejects('backends', 'webgpu in Node', 'BackendUnavailableError', "backend 'webgpu' is not available in node: Node.js has no WebGPU (run it in a browser). Available here: cpu, wasm.", () => useBackend('webgpu')),
  rejects('backends', 'numThreads 0', 'InvalidArgumentError', /^useBackend: 'numThreads' must be an integer from 1 to 8/, () => useBackend('wasm', { numThreads: 0 })),
];
