import { describe, expect, it } from 'vitest';
import { wasmBinaryFor } from './wasm-binary-for.js';

describe('wasmBinaryFor', () => {
  it.each([
    [true, true, 'tfjs-backend-wasm-threaded-simd.wasm'],
    [true, false, 'tfjs-backend-wasm-simd.wasm'],
    [false, false, 'tfjs-backend-wasm.wasm'],
    [false, true, 'tfjs-backend-wasm.wasm'],
  ] as const)('simd %s, threads %s -> %s', (simd, threads, binary) => expect(wasmBinaryFor(simd, threads)).toBe(binary));
});
