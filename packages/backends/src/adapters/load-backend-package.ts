import { BackendPackageMissingError } from '../errors/backend-package-missing-error.js';
import type { BackendPackage } from './backend-package.js';
import { isPackageNotFound } from './is-package-not-found.js';

/**
 * Loads a backend's package; if it is not installed, throws {@link BackendPackageMissingError}
 * naming it and the install command. Any other failure (a broken install, a missing dependency
 * of the package) is thrown unchanged.
 *
 * @example
 * const { setWasmPaths } = await loadBackendPackage(WASM_PACKAGE, 'useBackend');
 */
export async function loadBackendPackage<Module>(backendPackage: BackendPackage<Module>, caller: string): Promise<Module> {
  try {
    return await backendPackage.load();
  } catch (error) {
    if (!isPackageNotFound(error, backendPackage.name)) throw error;
    throw missingPackageError(backendPackage, caller, error);
  }
}

/**
 * The {@link BackendPackageMissingError} for `backendPackage`, for callers that found it missing
 * without importing it.
 */
export function missingPackageError(backendPackage: BackendPackage, caller: string, cause?: unknown): BackendPackageMissingError {
  return new BackendPackageMissingError({
    caller,
    backend: backendPackage.backend,
    packageName: backendPackage.name,
    versionRange: backendPackage.versionRange,
    ...(cause === undefined ? {} : { cause }),
  });
}
