import { getKernel, neg, reciprocal, tensor1d } from '@tensorflow/tfjs-core';
import { describe, expect, it, vi } from 'vitest';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { wrapWasmKernel } from './wrap-wasm-kernel.js';

describe('wrapWasmKernel', () => {
  it('wraps the kernel registered now, once, and leaves unknown names alone', async () => {
    await useTfjsBackend('wasm');
    const current = getKernel('Reciprocal', 'wasm')!;
    const seen: number[][] = [];
    const wrap = vi.fn((kernel: typeof current) => (args: Parameters<typeof current.kernelFunc>[0]) => {
      seen.push([...(args.inputs as unknown as { x: { shape: number[] } }).x.shape]);
      return kernel.kernelFunc(args);
    });
    expect(wrapWasmKernel('Reciprocal', wrap)).toEqual(['Reciprocal']);
    expect(wrapWasmKernel('Reciprocal', wrap)).toEqual(['Reciprocal']);
    expect(wrap).toHaveBeenCalledTimes(1);
    expect(getKernel('Reciprocal', 'wasm')).not.toBe(current);
    const y = reciprocal(tensor1d([2, 4]));
    expect([Array.from(await y.data()), seen]).toEqual([[0.5, 0.25], [[2]]]);
    expect(wrapWasmKernel('NoSuchKernel', wrap)).toEqual([]);
    expect(Array.from(await neg(tensor1d([1])).data())).toEqual([-1]);
  });
});
