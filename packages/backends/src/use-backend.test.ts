import { matMul, memory, tensor, tidy } from '@tensorflow/tfjs-core';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WASM_PACKAGE } from './adapters/backend-packages.js';
import { BackendPackageMissingError } from './errors/backend-package-missing-error.js';
import { BackendUnavailableError } from './errors/backend-unavailable-error.js';
import { UnknownBackendError } from './errors/unknown-backend-error.js';
import { WasmBinariesMissingError } from './errors/wasm-binaries-missing-error.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { defaultKernelThreads } from '@attnkit/kernels';
import { useBackend } from './use-backend.js';

afterEach(() => vi.restoreAllMocks());

/** What Node throws for `import('@tensorflow/tfjs-backend-wasm')` when the package is not installed. */
const wasmNotInstalled = Object.assign(
  new Error("Cannot find package '@tensorflow/tfjs-backend-wasm' imported from /app/node_modules/@attnkit/backends/dist/adapters/backend-packages.js"),
  { code: 'ERR_MODULE_NOT_FOUND' },
);

describe('useBackend (Node)', () => {
  it('names the package and the install command when @tensorflow/tfjs-backend-wasm is not installed', async () => {
    vi.spyOn(WASM_PACKAGE, 'load').mockRejectedValue(wasmNotInstalled);
    const error = await useBackend('wasm').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendPackageMissingError);
    expect((error as Error).message).toBe(
      "useBackend: the 'wasm' backend needs @tensorflow/tfjs-backend-wasm, which is not installed. " +
        'Install it: npm install @tensorflow/tfjs-backend-wasm@^4.22.0',
    );
    expect(error).toMatchObject({ code: 'ATTNKIT_BACKEND_PACKAGE_MISSING', backend: 'wasm', packageName: '@tensorflow/tfjs-backend-wasm', cause: wasmNotInstalled });
  });

  it('passes other failures to load the wasm package through unchanged', async () => {
    const broken = Object.assign(new Error("Cannot find package '@types/emscripten' imported from /app/node_modules/@tensorflow/tfjs-backend-wasm/dist/index.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    vi.spyOn(WASM_PACKAGE, 'load').mockRejectedValue(broken);
    await expect(useBackend('wasm')).rejects.toBe(broken);
  });

  it('initialises cpu and reports it', async () => {
    const caps = await useBackend('cpu');
    expect(caps).toMatchObject({ backend: 'cpu', environment: 'node', floatPrecision: 32 });
    expect(caps.missingKernels).toEqual([]);
  });

  it('rejects missing wasm binaries before touching tfjs, naming the file', async () => {
    const error = await useBackend('wasm', { wasmPaths: '/nonexistent-attnkit/' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmBinariesMissingError);
    expect((error as Error).message).toMatch(/wasm binaries not found: \/nonexistent-attnkit\/tfjs-backend-wasm-threaded-simd\.wasm \(from wasmPaths\)/);
  });

  it('rejects a bad thread count with the accepted range', async () => {
    await expect(useBackend('wasm', { numThreads: 0 })).rejects.toThrow(InvalidArgumentError);
    await expect(useBackend('wasm', { numThreads: 1.5 })).rejects.toThrow(
      "useBackend: 'numThreads' must be an integer from 1 to 8 (tfjs-backend-wasm uses at most 8 threads); received 1.5.",
    );
  });

  it('initialises wasm from the installed package: threaded SIMD on every core, Einsum as the only gap', async () => {
    const caps = await useBackend('wasm');
    expect(caps.backend).toBe('wasm');
    expect(caps.wasm).toMatchObject({ binary: 'tfjs-backend-wasm-threaded-simd.wasm', simd: true, threads: true });
    expect(caps.wasm?.threadCount).toBe(Math.min(8, Math.max(1, availableParallelism() - defaultKernelThreads()))); // the cores the kernel workers leave
    expect(caps.wasm?.crossOriginIsolated).toBeUndefined();
    expect(caps.missingKernels).toEqual(['Einsum']);
    const before = memory().numTensors;
    const product = tidy(() => matMul(tensor([[1, 2]]), tensor([[3], [4]])));
    expect(await product.data()).toEqual(Float32Array.of(11));
    product.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('refuses to change the thread count once wasm is initialised', async () => {
    const other = Math.min(8, availableParallelism()) === 3 ? 2 : 3; // a count that differs from this machine's default
    await expect(useBackend('wasm', { numThreads: other })).rejects.toThrow(
      new RegExp(`useBackend: 'numThreads' must be unchanged once wasm is initialised \\(\\d\\); received ${other}\\.`),
    );
  });

  it('names the backends Node has when webgl or webgpu is asked for', async () => {
    const webgl = await useBackend('webgl').catch((e: unknown) => e);
    expect(webgl).toBeInstanceOf(BackendUnavailableError);
    expect((webgl as Error).message).toBe(
      "backend 'webgl' is not available in node: Node.js has no WebGL (run it in a browser). Available here: cpu, wasm.",
    );
    await expect(useBackend('webgpu')).rejects.toThrow(
      "backend 'webgpu' is not available in node: Node.js has no WebGPU (run it in a browser). Available here: cpu, wasm.",
    );
  });

  it('rejects unknown names, listing the known ones', async () => {
    const error = await useBackend('wsam').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownBackendError);
    expect((error as Error).message).toBe("unknown backend 'wsam'; attnkit knows cpu, wasm, webgl, webgpu.");
    expect((error as UnknownBackendError).code).toBe('ATTNKIT_UNKNOWN_BACKEND');
  });
});
