import { findBackend, tensor1d } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { heapOffset, type WasmBackendInternals } from './tfjs-internals.js';

describe('WasmBackendInternals (tfjs-backend-wasm 4.22)', () => {
  it('has every member the fills use, and heapOffset points at the tensor data in the heap', async () => {
    await useTfjsBackend('wasm');
    const backend = findBackend('wasm') as unknown as WasmBackendInternals;
    expect([typeof backend.makeOutput, typeof backend.disposeData, typeof backend.readSync, typeof backend.dataIdMap.get, typeof backend.refCount]).toEqual(['function', 'function', 'function', 'function', 'function']);
    expect([backend.wasm.HEAPU8 instanceof Uint8Array, typeof backend.wasm.cwrap, typeof backend.wasm.tfjs.disposeData, backend.wasm.wasmMemory ?? backend.wasm.asm?.memory]).toEqual([true, 'function', 'function', expect.any(WebAssembly.Memory)]);
    const x = tensor1d([1.5, -2, 3.25]);
    const offset = heapOffset(backend, x);
    expect(Array.from(new Float32Array(backend.wasm.HEAPU8.buffer, offset, 3))).toEqual([1.5, -2, 3.25]);
    x.dispose();
  });
});
