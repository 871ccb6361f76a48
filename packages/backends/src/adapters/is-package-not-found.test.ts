import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isPackageNotFound } from './is-package-not-found.js';

const absent = '@attnkit/no-such-package';

/** A real failure of `what()`, as this runtime reports it. */
async function failureOf(what: () => unknown): Promise<unknown> {
  try {
    await what();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('isPackageNotFound', () => {
  it("recognises this runtime's own errors for a missing package: import(), require.resolve() of it and of a file in it", async () => {
    const require = createRequire(import.meta.url);
    expect(isPackageNotFound(await failureOf(() => import(absent)), absent)).toBe(true);
    expect(isPackageNotFound(await failureOf(() => require.resolve(absent)), absent)).toBe(true);
    expect(isPackageNotFound(await failureOf(() => require.resolve(`${absent}/dist/x.wasm`)), absent)).toBe(true);
  });

  it("recognises the stub Vite puts in a bundle for a missing optional peer dependency", () => {
    const error = new Error('Could not resolve "@tensorflow/tfjs-backend-webgl" imported by "@attnkit/backends". Is it installed?');
    expect(isPackageNotFound(error, '@tensorflow/tfjs-backend-webgl')).toBe(true);
  });

  it('is false for failures that do not name the package: another missing package, a prefix of the name, a broken install, other errors', async () => {
    const otherPackage = await failureOf(() => import(`${absent}-dependency`));
    expect(isPackageNotFound(otherPackage, absent)).toBe(false);
    const longerName = Object.assign(new Error(`Cannot find package '${absent}-extra' imported from /app/x.js`), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(isPackageNotFound(longerName, absent)).toBe(false);
    const brokenFile = Object.assign(new Error(`Cannot find module '/app/node_modules/${absent}/dist/index.js' imported from /app/x.js`), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(isPackageNotFound(brokenFile, absent)).toBe(false);
    expect(isPackageNotFound(new Error(`Cannot find package '${absent}'`), absent)).toBe(false); // no not-found code
    expect(isPackageNotFound(new SyntaxError('Unexpected token'), absent)).toBe(false);
    expect(isPackageNotFound(`Cannot find package '${absent}'`, absent)).toBe(false);
  });
});
