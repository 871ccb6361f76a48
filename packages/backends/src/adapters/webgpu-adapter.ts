import { detectEnvironment } from '@attnkit/errors';
import { selectBackend } from '../select-backend.js';
import type { BackendAdapter } from './backend-adapter.js';
import { WEBGPU_PACKAGE } from './backend-packages.js';
import { loadBackendPackage } from './load-backend-package.js';

interface GpuAdapterLike {
  info?: { vendor?: string; architecture?: string };
  limits: { maxStorageBufferBindingSize: number };
}
interface GpuLike {
  requestAdapter(): Promise<GpuAdapterLike | null>;
}

function gpu(): GpuLike | undefined {
  return (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
}

/**
 * tfjs-backend-webgpu. Needs `navigator.gpu` and an adapter; headless Chromium gives one only with
 * `--enable-unsafe-webgpu --use-webgpu-adapter=swiftshader` (software, slow, float32).
 */
export const webgpuAdapter: BackendAdapter = {
  name: 'webgpu',
  optionalPackage: WEBGPU_PACKAGE,
  async unavailableReason() {
    if (detectEnvironment() === 'node') return 'Node.js has no WebGPU (run it in a browser)';
    const api = gpu();
    if (api === undefined) return 'navigator.gpu is missing (this browser has WebGPU disabled)';
    const adapter = await api.requestAdapter();
    return adapter === null
      ? 'navigator.gpu.requestAdapter() returned no adapter (headless Chromium needs --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader)'
      : undefined;
  },
  async initialize() {
    await loadBackendPackage(WEBGPU_PACKAGE, 'useBackend');
    await selectBackend('webgpu');
  },
  fillKernels() {
    return [];
  },
  async describe() {
    const adapter = await gpu()?.requestAdapter();
    return {
      floatPrecision: 32,
      webgpu: {
        vendor: adapter?.info?.vendor ?? 'unknown',
        architecture: adapter?.info?.architecture ?? 'unknown',
        maxStorageBufferBindingSize: adapter?.limits.maxStorageBufferBindingSize ?? 0,
      },
    };
  },
};
