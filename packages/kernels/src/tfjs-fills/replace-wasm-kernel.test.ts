import { abs, getKernel, neg, tensor1d } from '@tensorflow/tfjs-core';
import { describe, expect, it, vi } from 'vitest';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { originalWasmKernel, replaceWasmKernel } from './replace-wasm-kernel.js';

describe('replaceWasmKernel', () => {
  it('replaces a wasm kernel once, keeps the original for fallbacks, and leaves it alone when wrap gives up', async () => {
    await useTfjsBackend('wasm');
    const before = getKernel('Neg', 'wasm')!;
    const wrap = vi.fn((original: typeof before) => (args: Parameters<typeof before.kernelFunc>[0]) => original.kernelFunc(args)); // the same maths, through the fill
    expect(replaceWasmKernel('Neg', wrap)).toEqual(['Neg']);
    expect(replaceWasmKernel('Neg', wrap)).toEqual(['Neg']);
    expect(wrap).toHaveBeenCalledTimes(1);
    expect([getKernel('Neg', 'wasm') !== before, originalWasmKernel('Neg')]).toEqual([true, before]);
    expect(Array.from(await neg(tensor1d([1, -2])).data())).toEqual([-1, 2]);
    const absBefore = getKernel('Abs', 'wasm');
    expect(replaceWasmKernel('Abs', () => undefined)).toEqual([]);
    expect([getKernel('Abs', 'wasm'), originalWasmKernel('Abs'), Array.from(await abs(tensor1d([-3])).data())]).toEqual([absBefore, undefined, [3]]);
    expect(replaceWasmKernel('NoSuchKernel', wrap)).toEqual([]);
  });
});
