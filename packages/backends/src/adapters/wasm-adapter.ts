import { engine, env } from '@tensorflow/tfjs-core';
import { detectEnvironment } from '../environment.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { UseBackendOptions } from '../use-backend-options.js';
import type { BackendAdapter } from './backend-adapter.js';
import { resolveWasmLocationBrowser } from './resolve-wasm-location-browser.js';
import { wasmBinaryFor } from './wasm-binary-for.js';

let requestedThreads: number | undefined;

function checkThreads(numThreads: number | undefined): void {
  if (numThreads === undefined) return;
  if (!Number.isInteger(numThreads) || numThreads < 1 || numThreads > 64) {
    throw new InvalidArgumentError({
      caller: 'useBackend',
      argument: 'numThreads',
      expected: 'an integer from 1 to 64',
      received: String(numThreads),
    });
  }
}

async function binarySupport(): Promise<{ simd: boolean; threads: boolean }> {
  const [simd, threads] = await Promise.all([
    env().getAsync('WASM_HAS_SIMD_SUPPORT'),
    env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'),
  ]);
  return { simd: simd === true, threads: threads === true };
}

/**
 * tfjs-backend-wasm (XNNPACK). Binaries always come from the installed package (Node) or your own
 * origin (browser). Threads run where the platform allows: the threaded binary in a
 * cross-origin-isolated browser page; Node runs one thread (tfjs' threaded build cannot start there).
 */
export const wasmAdapter: BackendAdapter = {
  name: 'wasm',
  async unavailableReason() {
    return typeof WebAssembly === 'object' ? undefined : 'this runtime has no WebAssembly';
  },
  async prepare(options: UseBackendOptions) {
    checkThreads(options.numThreads);
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    if (engine().registry['wasm'] !== undefined) {
      if (options.numThreads !== undefined && options.numThreads !== requestedThreads) {
        throw new InvalidArgumentError({
          caller: 'useBackend',
          argument: 'numThreads',
          expected: `unchanged once wasm is initialised (${requestedThreads ?? 'default'})`,
          received: String(options.numThreads),
          hint: 'Pass numThreads to the first useBackend("wasm") call of the page or process.',
        });
      }
      return;
    }
    const { simd, threads } = await binarySupport();
    const binary = wasmBinaryFor(simd, threads);
    const location =
      detectEnvironment() === 'node'
        ? (await import('./resolve-wasm-location-node.js')).resolveWasmLocationNode(options.wasmPaths, binary)
        : await resolveWasmLocationBrowser(options.wasmPaths, binary);
    wasm.setWasmPaths(location);
    requestedThreads = options.numThreads;
    if (options.numThreads !== undefined) wasm.setThreadsCount(options.numThreads);
  },
  fillKernels() {
    return [];
  },
  async describe() {
    const { simd, threads } = await binarySupport();
    const { getThreadsCount } = await import('@tensorflow/tfjs-backend-wasm');
    const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
    return {
      floatPrecision: 32,
      wasm: {
        binary: wasmBinaryFor(simd, threads),
        simd,
        threads,
        threadCount: getThreadsCount(),
        crossOriginIsolated: detectEnvironment() === 'node' ? undefined : isolated === true,
      },
    };
  },
};
