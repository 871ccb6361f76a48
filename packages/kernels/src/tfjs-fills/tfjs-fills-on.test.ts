import { describe, expect, it } from 'vitest';
import { erf64 } from '../erf64.js';
import { simdKernelsOn, simdKernelsRun, type SimdBackend } from './tfjs-fills-on.js';

/** A stand-in for tfjs-backend-wasm's module: only its memory. */
const fakeBackend = (memory: WebAssembly.Memory, threaded: boolean): SimdBackend => ({ wasm: threaded ? { wasmMemory: memory } : { asm: { memory } } });

describe('simdKernelsOn', () => {
  it('runs only where a memory is exposed', () => {
    expect(simdKernelsRun(undefined)).toBe(false);
    expect(simdKernelsRun({ wasm: {} } as SimdBackend)).toBe(false);
    expect(simdKernelsRun(fakeBackend(new WebAssembly.Memory({ initial: 1 }), false))).toBe(true);
  });

  it.each([
    ['the threaded binary (shared memory, wasmMemory)', true],
    ['the single-threaded binary (asm.memory)', false],
  ] as const)('instantiates once per backend on %s and computes on that memory in place', (_, threaded) => {
    const memory = new WebAssembly.Memory(threaded ? { initial: 2, maximum: 65536, shared: true } : { initial: 2 });
    const backend = fakeBackend(memory, threaded);
    const kernels = simdKernelsOn(backend)!;
    expect(simdKernelsOn(backend)).toBe(kernels);
    const xs = [-3, -0.5, 0, 0.25, 1, 2.5, 7];
    new Float32Array(memory.buffer, 64, xs.length).set(xs);
    kernels.erf(64, 1024, xs.length);
    kernels.gelu(64, 2048, xs.length);
    const [erfOut, geluOut] = [new Float32Array(memory.buffer, 1024, xs.length), new Float32Array(memory.buffer, 2048, xs.length)];
    expect(xs.map((x, i) => Math.abs(erfOut[i]! - erf64(Math.fround(x))) <= 2e-7)).toEqual(xs.map(() => true));
    expect(xs.map((x, i) => Math.abs(geluOut[i]! - 0.5 * x * (1 + erf64(x * Math.SQRT1_2))) <= 1e-6)).toEqual(xs.map(() => true));
  });
});
