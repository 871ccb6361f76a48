import type { BackendAdapter } from './backend-adapter.js';

/** The pure-JavaScript tfjs backend: available everywhere, float32, slow. */
export const cpuAdapter: BackendAdapter = {
  name: 'cpu',
  async unavailableReason() {
    return undefined;
  },
  async prepare() {
    await import('@tensorflow/tfjs-backend-cpu');
  },
  fillKernels() {
    return [];
  },
  async describe() {
    return { floatPrecision: 32 };
  },
};
