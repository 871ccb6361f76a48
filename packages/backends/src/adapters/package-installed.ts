import { detectEnvironment, nodeBuiltin } from '@attnkit/errors';
import { isPackageNotFound } from './is-package-not-found.js';

/**
 * Whether `packageName` resolves from `@attnkit/backends` — where its `import()` will look — without
 * loading it. Node only; elsewhere `true` (a bundle holds whatever the bundler found). Failures
 * other than "not found" are thrown.
 *
 * @example
 * packageInstalled('@tensorflow/tfjs-backend-wasm'); // false after npm uninstall
 */
export function packageInstalled(packageName: string): boolean {
  if (detectEnvironment() !== 'node') return true;
  try {
    nodeBuiltin('node:module').createRequire(import.meta.url).resolve(packageName);
    return true;
  } catch (error) {
    if (isPackageNotFound(error, packageName)) return false;
    throw error;
  }
}
