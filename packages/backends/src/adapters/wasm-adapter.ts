import { engine, env } from '@tensorflow/tfjs-core';
import { detectEnvironment } from '../environment.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { UseBackendOptions } from '../use-backend-options.js';
import type { BackendAdapter } from './backend-adapter.js';
import { selectBackend } from '../select-backend.js';
import { withLogicalCores } from './with-logical-cores.js';
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

/** Logical cores of this machine (Node `os` is not needed: Node never gets the threaded binary). */
function logicalCores(): number {
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1;
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
 * origin (browser). In a cross-origin-isolated page the threaded binary loads and XNNPACK gets
 * `numThreads` (default: every logical core); elsewhere, and in Node, one thread.
 */
export const wasmAdapter: BackendAdapter = {
  name: 'wasm',
  async unavailableReason() {
    return typeof WebAssembly === 'object' ? undefined : 'this runtime has no WebAssembly';
  },
  async initialize(options: UseBackendOptions) {
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
      return selectBackend('wasm');
    }
    const { simd, threads } = await binarySupport();
    const binary = wasmBinaryFor(simd, threads);
    const location =
      detectEnvironment() === 'node'
        ? (await import('./resolve-wasm-location-node.js')).resolveWasmLocationNode(options.wasmPaths, binary)
        : await resolveWasmLocationBrowser(options.wasmPaths, binary);
    wasm.setWasmPaths(location);
    if (!threads) {
      requestedThreads = 1;
      return selectBackend('wasm');
    }
    requestedThreads = options.numThreads ?? logicalCores();
    wasm.setThreadsCount(requestedThreads);
    await withLogicalCores(2 * requestedThreads, () => selectBackend('wasm'));
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
