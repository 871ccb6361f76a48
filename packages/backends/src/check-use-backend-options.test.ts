import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { checkUseBackendOptions } from './check-use-backend-options.js';

describe('checkUseBackendOptions', () => {
  it('passes the documented options through', () => {
    expect(checkUseBackendOptions({}, 'useBackend')).toEqual({});
    expect(checkUseBackendOptions({ numThreads: 2, wasmPaths: '/wasm/' }, 'useBackend')).toEqual({ numThreads: 2, wasmPaths: '/wasm/' });
    expect(checkUseBackendOptions({ wasmPaths: { 'tfjs-backend-wasm.wasm': '/a.wasm' } }, 'useBackend')).toEqual({ wasmPaths: { 'tfjs-backend-wasm.wasm': '/a.wasm' } });
  });

  it.each<[string, unknown, RegExp]>([
    ['options that are no object', [1], /^useBackend: 'options' must be an options object/],
    ['null options', null, /^useBackend: 'options' must be an options object/],
    ['an unknown key', { threads: 2 }, /threads/],
    ['numThreads 0', { numThreads: 0 }, /^useBackend: 'numThreads' must be an integer from 1 to 8 \(tfjs-backend-wasm uses at most 8 threads\); received 0\.$/],
    ['numThreads null', { numThreads: null }, /^useBackend: 'numThreads' must be an integer from 1 to 8/],
    ['numThreads "2"', { numThreads: '2' }, /^useBackend: 'numThreads' must be an integer from 1 to 8/],
    ['an empty wasmPaths', { wasmPaths: '' }, /^useBackend: 'wasmPaths' must be a folder URL or path/],
    ['a wasmPaths record with a number', { wasmPaths: { a: 1 } }, /^useBackend: 'wasmPaths' must be a folder URL or path/],
    ['a wasmPaths of -1', { wasmPaths: -1 }, /^useBackend: 'wasmPaths' must be a folder URL or path/],
  ])('refuses %s with an InvalidArgumentError', (_, options, message) => {
    expect(() => checkUseBackendOptions(options, 'useBackend')).toThrow(InvalidArgumentError);
    expect(() => checkUseBackendOptions(options, 'useBackend')).toThrow(message);
  });
});
