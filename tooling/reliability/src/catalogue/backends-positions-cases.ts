import { ones, tidy } from '@tensorflow/tfjs-core';
import { checkMemoryBudget, compareBackends, defaultTolerance, maxDifference, memoryBudget, useBackend, withBackend } from '@attnkit/backends';
import type { CatalogueCase } from './catalogue-case.js';
import { variants, type ValidCall } from './positions-cases.js';

const CALLER = 'the caller only names the function in messages';
const WASM_PATHS = 'a relative folder for the wasm binaries (read when wasm starts; cpu ignores it)';
/** `position:label` accepted for every hostile value at a caller-name position. */
const callerAccepted = (position: number) => Object.fromEntries(['undefined', 'null', 'NaN', '{}', '"x"', 'a sparse array [1, , 1]', 'a disposed tensor', 'an int32 tensor', 'a rank-0 float tensor'].map((label) => [`${position}:${label}`, CALLER]));

const VALID_CALLS: readonly ValidCall[] = [
  { name: 'backends.useBackend', args: () => ['cpu', {}], call: ([n, o]) => useBackend(n as never, o as never), optional: [1], options: { index: 1, keys: ['wasmPaths', 'numThreads'] }, accepted: { 'wasmPaths:"x"': WASM_PATHS } },
  { name: 'backends.withBackend', args: () => ['cpu', () => 1, {}], call: ([n, f, o]) => withBackend(n as never, f as never, o as never), optional: [2], options: { index: 2, keys: ['wasmPaths', 'numThreads'] }, accepted: { 'wasmPaths:"x"': WASM_PATHS } },
  { name: 'backends.compareBackends', args: () => [() => ({ y: tidy(() => ones([2])) }), { backends: ['cpu', 'wasm'], tolerance: 1e-6 }], call: ([f, o]) => compareBackends(f as never, o as never),
    options: { index: 1, keys: ['backends', 'tolerance', 'reference', 'baseline'] } },
  { name: 'backends.maxDifference', args: () => [[1, 2], [1, 2.5], 'catalogue'], call: ([a, e, c]) => maxDifference(a as never, e as never, c as string), optional: [2], accepted: callerAccepted(2) },
  { name: 'backends.memoryBudget', args: () => ['cpu'], call: ([b]) => memoryBudget(b as string), optional: [0] },
  { name: 'backends.defaultTolerance', args: () => ['cpu', [1, 2]], call: ([b, e]) => defaultTolerance(b as never, e as never) },
  { name: 'backends.checkMemoryBudget', args: () => ['catalogue', 'a tensor', [2, 3], 1, 'cpu', 'a hint'], call: ([c, w, s, n, b, h]) => checkMemoryBudget(c as string, w as string, s as never, n as number, b as string, h as string), optional: [3, 4, 5],
    accepted: { '0:"x"': 'a caller name', '1:"x"': 'a description of the allocation, for the message', '5:"x"': 'a hint, for the message' } },
];

/** The backends package's calls (backend choice, comparison, budgets), every argument position and option key; Node only, on cpu and wasm. */
export const backendsPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
