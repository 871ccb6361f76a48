import { clone, engine, memory, tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { fillWasmKernels } from './fill-wasm-kernels.js';

describe('Identity on wasm (fillWasmIdentity)', () => {
  beforeAll(async () => {
    await useTfjsBackend('wasm');
    fillWasmKernels();
  });
  afterAll(() => useTfjsBackend('cpu'));

  it('shares the data instead of copying it: one buffer for both, kept until both are disposed', async () => {
    const x = tensor([[1, 2, 3], [4, 5, 6]]);
    const before = { ids: engine().backend.numDataIds(), memory: memory() };
    const y = clone(x);
    expect(engine().backend.numDataIds()).toBe(before.ids); // no new allocation
    expect(y.shape).toEqual([2, 3]);
    expect(y.dataId).toBe(x.dataId);
    x.dispose(); // the clone keeps the bytes alive
    expect(Array.from(await y.data())).toEqual([1, 2, 3, 4, 5, 6]);
    y.dispose(); // and now they are freed
    expect(engine().backend.numDataIds()).toBe(before.ids - 1);
    expect(memory().numTensors).toBe(before.memory.numTensors - 1);
  });

  it('keeps every dtype but strings sharing, and strings still clone (the original kernel)', async () => {
    for (const dtype of ['float32', 'int32', 'bool'] as const) {
      const x = tensor([1, 0, 1], [3], dtype);
      const y = clone(x);
      expect([y.dtype, y.dataId === x.dataId]).toEqual([dtype, true]);
      expect(Array.from(await y.data())).toEqual(Array.from(await x.data()));
      [x, y].forEach((t) => t.dispose());
    }
    const s = tensor(['a', 'bc']);
    const t = clone(s);
    expect(await t.data()).toEqual(['a', 'bc']);
    [s, t].forEach((v) => v.dispose());
  });

  it('gives an independent tensor: disposing the clone leaves the original intact, and a scalar keeps its rank', async () => {
    const x = tensor(7);
    const y = clone(x);
    y.dispose();
    expect([x.rank, await x.data()]).toEqual([0, new Float32Array([7])]);
    x.dispose();
  });
});
