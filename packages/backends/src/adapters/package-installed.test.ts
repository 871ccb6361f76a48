import { afterEach, describe, expect, it, vi } from 'vitest';
import { packageInstalled } from './package-installed.js';

afterEach(() => vi.unstubAllGlobals());

describe('packageInstalled', () => {
  it('resolves the package from @attnkit/backends without loading it', () => {
    expect(packageInstalled('@tensorflow/tfjs-backend-wasm')).toBe(true);
    expect(packageInstalled('@attnkit/no-such-package')).toBe(false);
  });

  it('leaves the answer to the bundler outside Node', () => {
    vi.stubGlobal('document', {});
    expect(packageInstalled('@attnkit/no-such-package')).toBe(true);
  });
});
