import { describe, expect, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { BackendInitError } from './backend-init-error.js';
import { BackendNotReadyError } from './backend-not-ready-error.js';
import { BackendPackageMissingError } from './backend-package-missing-error.js';
import { BackendUnavailableError } from './backend-unavailable-error.js';
import { UnknownBackendError } from './unknown-backend-error.js';
import { WasmBinariesMissingError } from './wasm-binaries-missing-error.js';

describe('typed errors', () => {
  it('each class has its own stable code and name', () => {
    const errors = [
      new UnknownBackendError('x', ['cpu']),
      new BackendUnavailableError({ requested: 'webgl', environment: 'node', reason: 'no GL', available: [] }),
      new WasmBinariesMissingError(['/a.wasm'], 'HTTP 404'),
      new BackendNotReadyError('f', 'none'),
      new BackendInitError('wasm', 'aborted', new Error('inner')),
      new BackendPackageMissingError({ caller: 'useBackend', backend: 'wasm', packageName: '@tensorflow/tfjs-backend-wasm', versionRange: '^4.22.0' }),
    ];
    expect(errors.map((e) => [e.name, e.code])).toEqual([
      ['UnknownBackendError', 'ATTNKIT_UNKNOWN_BACKEND'],
      ['BackendUnavailableError', 'ATTNKIT_BACKEND_UNAVAILABLE'],
      ['WasmBinariesMissingError', 'ATTNKIT_WASM_BINARIES_MISSING'],
      ['BackendNotReadyError', 'ATTNKIT_BACKEND_NOT_READY'],
      ['BackendInitError', 'ATTNKIT_BACKEND_INIT_FAILED'],
      ['BackendPackageMissingError', 'ATTNKIT_BACKEND_PACKAGE_MISSING'],
    ]);
    expect(errors.every((e) => e instanceof AttnkitError)).toBe(true);
    expect(errors[1]?.message).toBe("backend 'webgl' is not available in node: no GL. Available here: none.");
    expect(errors[4]?.message).toBe("backend 'wasm' failed to initialise: aborted.");
    expect((errors[4]?.cause as Error).message).toBe('inner');
  });
  it('BackendPackageMissingError names the package and the command that installs it, and keeps the import failure', () => {
    const cause = new Error("Cannot find package '@tensorflow/tfjs-backend-webgl'");
    const e = new BackendPackageMissingError({ caller: 'useBackend', backend: 'webgl', packageName: '@tensorflow/tfjs-backend-webgl', versionRange: '^4.22.0', cause });
    expect(e.message).toBe(
      "useBackend: the 'webgl' backend needs @tensorflow/tfjs-backend-webgl, which is not installed. " +
        'Install it: npm install @tensorflow/tfjs-backend-webgl@^4.22.0',
    );
    expect(e).toMatchObject({ backend: 'webgl', packageName: '@tensorflow/tfjs-backend-webgl', installCommand: 'npm install @tensorflow/tfjs-backend-webgl@^4.22.0' });
    expect(e.cause).toBe(cause);
    expect(e).toBeInstanceOf(AttnkitError);
  });

  it('each class is built from whatever it is given, so reporting never throws', () => {
    const disposed = { dataId: {}, shape: [2], dtype: 'float32', isDisposed: true, toString: () => { throw new Error('Tensor is disposed.'); } };
    const errors = [
      new UnknownBackendError(disposed as never, null as never),
      new BackendUnavailableError(null as never),
      new WasmBinariesMissingError('x' as never, Symbol('d') as never),
      new BackendNotReadyError(null as never, 'x' as never),
      new BackendInitError(disposed as never, undefined as never),
      new BackendPackageMissingError(undefined as never),
    ];
    expect(errors.map((e) => e.message)).toEqual([
      "unknown backend 'a disposed float32 tensor [2]'; attnkit knows none.",
      "backend 'undefined' is not available in undefined: undefined. Available here: none.",
      expect.stringMatching(/^wasm binaries not found: none named \(symbol d\)\. /),
      expect.stringMatching(/^null: no backend is ready \(a backend is still initialising\)/),
      "backend 'a disposed float32 tensor [2]' failed to initialise: undefined.",
      "undefined: the 'undefined' backend needs undefined, which is not installed. Install it: npm install undefined@undefined",
    ]);
    expect([(errors[0] as UnknownBackendError).known, (errors[3] as BackendNotReadyError).state, (errors[2] as WasmBinariesMissingError).missing]).toEqual([[], 'initialising', []]);
  });
});
