import { selectBackend } from '../select-backend.js';
import type { BackendAdapter } from './backend-adapter.js';

/** The pure-JavaScript tfjs backend: available everywhere, float32, slow. */
export const cpuAdapter: BackendAdapter = {
  name: 'cpu',
  async unavailableReason() {
    return undefined;
  },
  async initialize() {
    await import('@tensorflow/tfjs-backend-cpu');
    await selectBackend('cpu');
  },
  fillKernels() {
    return [];
  },
  async describe() {
    return { floatPrecision: 32 };
  },
};
