import { engine, randomNormal, setBackend, tensor1d } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendValues, residentOnWasm } from './backend-values.js';
import { int8MatMul } from './int8-mat-mul.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { wasmHeapLocation } from './tfjs-internals.js';

describe('backendValues and residentOnWasm', () => {
  beforeAll(async () => {
    await useTfjsBackend('cpu'); // registered, so that tensors can be made there
    await useTfjsBackend('wasm');
  });
  afterAll(() => useTfjsBackend('cpu'));

  it('views a wasm tensor in the heap without a copy, and moves a tensor another backend holds in first', async () => {
    const onWasm = tensor1d([1, 2, 3]);
    const view = backendValues(onWasm, Float32Array);
    expect(view.buffer).toBe(wasmHeapLocation(onWasm)!.buffer);
    expect(Array.from(view)).toEqual([1, 2, 3]);
    await setBackend('cpu');
    const onCpu = tensor1d([4, 5]);
    await setBackend('wasm');
    expect(engine().state.tensorInfo.get(onCpu.dataId)?.backend).not.toBe(engine().findBackend('wasm'));
    residentOnWasm([onCpu, undefined]);
    expect(wasmHeapLocation(onCpu)).toBeDefined();
    expect(Array.from(backendValues(onCpu, Float32Array))).toEqual([4, 5]);
    [onWasm, onCpu].forEach((t) => t.dispose());
  });

  it('an int8 product whose input another backend holds (a large one: moving it in grows the heap) still reads the bias it viewed', async () => {
    const float = randomNormal([64, 8], 0, 1, 'float32', 1);
    const weight = quantizeWeightPerChannel(float);
    float.dispose();
    const bias = tensor1d([1, 2, 3, 4, 5, 6, 7, 8]);
    await setBackend('cpu');
    const x = randomNormal([2 ** 17, 64], 0, 1, 'float32', 2); // 32 MiB, made on cpu
    await setBackend('wasm');
    const [got, plain] = [int8MatMul(x, weight, bias), int8MatMul(x, weight)];
    const [a, b] = [await got.data(), await plain.data()];
    expect(Array.from(a.slice(0, 8), (v, i) => v - (b[i] as number))).toEqual(Array.from({ length: 8 }, (_, i) => expect.closeTo(i + 1, 4)));
    [bias, x, got, plain].forEach((t) => t.dispose());
  });
});
