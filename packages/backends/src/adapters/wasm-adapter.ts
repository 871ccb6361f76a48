import { env } from '@tensorflow/tfjs-core';
import { detectEnvironment, InvalidArgumentError, nodeBuiltin } from '@attnkit/errors';
import { defaultKernelThreads, engineState, fillWasmKernels } from '@attnkit/kernels';
import type { UseBackendOptions } from '../use-backend-options.js';
import type { BackendAdapter } from './backend-adapter.js';
import { selectBackend } from '../select-backend.js';
import { withLogicalCores } from './with-logical-cores.js';
import { resolveWasmLocationBrowser } from './resolve-wasm-location-browser.js';
import { wasmBinaryFor } from './wasm-binary-for.js';
import { WASM_PACKAGE } from './backend-packages.js';
import { loadBackendPackage } from './load-backend-package.js';

let requestedThreads: number | undefined;

function checkThreads(numThreads: number | undefined): void {
  if (numThreads === undefined) return;
  if (!Number.isInteger(numThreads) || numThreads < 1 || numThreads > 8) {
    throw new InvalidArgumentError({
      caller: 'useBackend',
      argument: 'numThreads',
      expected: 'an integer from 1 to 8 (tfjs-backend-wasm uses at most 8 threads)',
      received: String(numThreads),
    });
  }
}

/** Logical cores of this machine (`navigator.hardwareConcurrency`, or Node's `os.availableParallelism()`). */
async function logicalCores(): Promise<number> {
  if (detectEnvironment() === 'node') return nodeBuiltin('node:os').availableParallelism();
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
 * origin (browser). XNNPACK gets `numThreads` threads (default: the logical cores attnkit's kernel
 * workers leave, at least 1 and at most 8: 1 on a 2- or 4-core machine, 4 on an 8-core one) in Node and
 * in cross-origin-isolated pages; other pages run one thread.
 */
export const wasmAdapter: BackendAdapter = {
  name: 'wasm',
  optionalPackage: WASM_PACKAGE,
  async unavailableReason() {
    return typeof WebAssembly === 'object' ? undefined : 'this runtime has no WebAssembly';
  },
  async initialize(options: UseBackendOptions) {
    checkThreads(options.numThreads);
    const wasm = await loadBackendPackage(WASM_PACKAGE, 'useBackend');
    if (engineState().registry['wasm'] !== undefined) {
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
    const node = detectEnvironment() === 'node';
    // default: the cores attnkit's kernel workers leave (they run the products and attention; XNNPACK's pool
    // beside them on the same cores made decoding 2-2.7x slower on 2 cores, encoders no faster)
    const wanted = Math.min(8, options.numThreads ?? Math.max(1, (await logicalCores()) - defaultKernelThreads()));
    if (node && (options.numThreads === undefined || wanted > 1)) await (await import('./node-threads/enable-node-threads.js')).enableNodeThreads(); // the threaded binary, as with more threads (numThreads: 1 asks for the plain one)
    const { simd, threads } = await binarySupport();
    const binary = wasmBinaryFor(simd, threads);
    const location = node
      ? (await import('./resolve-wasm-location-node.js')).resolveWasmLocationNode(options.wasmPaths, binary)
      : await resolveWasmLocationBrowser(options.wasmPaths, binary);
    wasm.setWasmPaths(location);
    requestedThreads = threads && simd ? wanted : 1;
    wasm.setThreadsCount(requestedThreads);
    // tfjs caps threads at half the logical cores it sees; show it twice the count wanted.
    const cores = 2 * requestedThreads;
    if (!node) return withLogicalCores(cores, () => selectBackend('wasm'));
    const { withNodeCpus } = await import('./node-threads/with-node-cpus.js');
    return withNodeCpus(cores, () => selectBackend('wasm'));
  },
  fillKernels: fillWasmKernels, // attnkit's kernels from @attnkit/kernels: its own, faster tfjs ones, the zero-size guard
  async describe() {
    const { simd, threads } = await binarySupport();
    const { getThreadsCount } = await loadBackendPackage(WASM_PACKAGE, 'describeBackend');
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
