import { zeros } from '@tensorflow/tfjs-core';
import {
  BackendInitError, BackendNotReadyError, BackendPackageMissingError, BackendUnavailableError, UnknownBackendError, WasmBinariesMissingError, assertBackendReady, callBackend, ensureBackend,
  missingKernels, namedOutputs, parseBackendName,
} from '@attnkit/backends';
import type { CatalogueCase } from './catalogue-case.js';
import { acceptedEverywhere, built, REPORTS } from './kernels-positions-cases.js';
import { variants, type ValidCall } from './positions-cases.js';

const CALLER = 'the caller only names the function in messages (a backend is ready here, so none is thrown)';
const OUTPUT = 'a live tensor is an output (named "output")';

const VALID_CALLS: readonly ValidCall[] = [
  // the errors
  { name: 'backends.BackendInitError', args: () => ['wasm', 'aborted', new Error('inner')], call: ([b, d, c]) => built(new BackendInitError(b as string, d as string, c)), optional: [2], accepted: acceptedEverywhere(REPORTS, [0, 1, 2]) },
  { name: 'backends.BackendNotReadyError', args: () => ['f', 'uninitialised', 'wasm'], call: ([c, s, b]) => built(new BackendNotReadyError(c as string, s as never, b as string)), optional: [2], accepted: acceptedEverywhere(REPORTS, [0, 1, 2]) },
  { name: 'backends.BackendPackageMissingError', args: () => [{ caller: 'useBackend', backend: 'wasm', packageName: '@tensorflow/tfjs-backend-wasm', versionRange: '^4.22.0', cause: new Error('inner') }],
    call: ([d]) => built(new BackendPackageMissingError(d as never)), options: { index: 0, keys: ['caller', 'backend', 'packageName', 'versionRange', 'cause'] },
    accepted: acceptedEverywhere(REPORTS, [0], ['caller', 'backend', 'packageName', 'versionRange', 'cause']) },
  { name: 'backends.BackendUnavailableError', args: () => [{ requested: 'webgl', environment: 'node', reason: 'no GL', available: ['cpu'] }], call: ([d]) => built(new BackendUnavailableError(d as never)),
    options: { index: 0, keys: ['requested', 'environment', 'reason', 'available'] }, accepted: acceptedEverywhere(REPORTS, [0], ['requested', 'environment', 'reason', 'available']) },
  { name: 'backends.UnknownBackendError', args: () => ['x', ['cpu', 'wasm']], call: ([r, k]) => built(new UnknownBackendError(r as string, k as never)), accepted: acceptedEverywhere(REPORTS, [0, 1]) },
  { name: 'backends.WasmBinariesMissingError', args: () => [['/a.wasm'], 'HTTP 404'], call: ([m, d]) => built(new WasmBinariesMissingError(m as never, d as string)), accepted: acceptedEverywhere(REPORTS, [0, 1]) },
  // readiness and names
  { name: 'backends.assertBackendReady', args: () => ['catalogue'], call: ([c]) => assertBackendReady(c as string), accepted: acceptedEverywhere(CALLER, [0]) },
  { name: 'backends.ensureBackend', args: () => ['catalogue'], call: ([c]) => ensureBackend(c as string), accepted: { '0:"x"': 'a caller name (a non-empty string)' } },
  { name: 'backends.callBackend', args: () => ['catalogue', 'cpu'], call: ([c, b]) => callBackend(c as string, b as string).run(() => 1), optional: [1], accepted: acceptedEverywhere(CALLER, [0]) },
  { name: 'backends.callBackend.run', args: () => [() => 1], call: ([fn]) => callBackend('catalogue', 'cpu').run(fn as never) },
  { name: 'backends.parseBackendName', args: () => ['cpu'], call: ([n]) => parseBackendName(n) },
  { name: 'backends.missingKernels', args: () => ['cpu'], call: ([b]) => missingKernels(b as string) },
  { name: 'backends.namedOutputs', args: () => [{ y: zeros([2]) }], call: ([o]) => namedOutputs(o as never), options: { index: 0, keys: ['y'] },
    accepted: { '0:an int32 tensor': OUTPUT, '0:a rank-0 float tensor': OUTPUT } },
];

/** The backends package's exports no table can call with a hostile value. */
export const positionsExempt: Record<string, string> = {
  'backends.availableBackends': 'takes no arguments: there is no argument position or option to give a hostile value',
  'backends.describeBackend': 'takes no arguments: there is no argument position or option to give a hostile value',
};

/** The rest of the backends package (its error classes, readiness, callBackend, names, named outputs), every argument position and option key; Node only, on cpu. */
export const backendsMorePositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
