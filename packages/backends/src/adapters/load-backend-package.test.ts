import { describe, expect, it } from 'vitest';
import { BackendPackageMissingError } from '../errors/backend-package-missing-error.js';
import type { BackendPackage } from './backend-package.js';
import { loadBackendPackage } from './load-backend-package.js';

const notFound = Object.assign(
  new Error("Cannot find package '@tensorflow/tfjs-backend-webgpu' imported from /app/node_modules/@attnkit/backends/dist/adapters/backend-packages.js"),
  { code: 'ERR_MODULE_NOT_FOUND' },
);

function webgpuPackage(load: () => Promise<unknown>): BackendPackage {
  return { backend: 'webgpu', name: '@tensorflow/tfjs-backend-webgpu', versionRange: '^4.22.0', load, installed: () => true };
}

describe('loadBackendPackage', () => {
  it('returns the module', async () => {
    expect(await loadBackendPackage(webgpuPackage(async () => ({ ok: 1 })), 'useBackend')).toEqual({ ok: 1 });
  });

  it('turns "not installed" into BackendPackageMissingError with the install command, keeping the import failure as cause', async () => {
    const error = await loadBackendPackage(webgpuPackage(() => Promise.reject(notFound)), 'useBackend').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendPackageMissingError);
    expect((error as Error).message).toBe(
      "useBackend: the 'webgpu' backend needs @tensorflow/tfjs-backend-webgpu, which is not installed. " +
        'Install it: npm install @tensorflow/tfjs-backend-webgpu@^4.22.0',
    );
    expect((error as Error).cause).toBe(notFound);
  });

  it('throws other failures unchanged (a missing dependency of the package, an error while it loads)', async () => {
    const dependencyMissing = Object.assign(new Error("Cannot find package 'seedrandom' imported from /app/node_modules/@tensorflow/tfjs-backend-webgpu/dist/index.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadBackendPackage(webgpuPackage(() => Promise.reject(dependencyMissing)), 'useBackend')).rejects.toBe(dependencyMissing);
    const crash = new TypeError('navigator is undefined');
    await expect(loadBackendPackage(webgpuPackage(() => Promise.reject(crash)), 'useBackend')).rejects.toBe(crash);
  });
});
