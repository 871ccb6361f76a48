import { gather, tensor, tensor1d, tensor2d, tensor3d } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';

describe('wasm GatherV2 fill (whole rows, heap to heap)', () => {
  it('looks up embedding rows like an element-by-element gather, with repeated and 2-D indices', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain('GatherV2');
    const [rows, width] = [50, 16];
    const table = Array.from({ length: rows * width }, (_, i) => i * 0.5 - 7);
    const x = tensor2d(table, [rows, width]);
    const ids = [[3, 49, 0], [3, 3, 17]];
    const y = gather(x, tensor(ids, [2, 3], 'int32'));
    expect(y.shape).toEqual([2, 3, width]);
    expect(Array.from(await y.data())).toEqual(ids.flat().flatMap((r) => table.slice(r * width, (r + 1) * width)));
    [x, y].forEach((t) => t.dispose());
  });

  it('gathers along a middle axis and with batchDims, like the original kernel', async () => {
    await useBackend('wasm');
    const values = Array.from({ length: 2 * 4 * 3 * 8 }, (_, i) => i);
    const x = tensor(values, [2, 4, 3, 8]); // rows of 3·8 = 24 elements along axis 1
    const at = (b: number, i: number, j: number): number[] => values.slice(((b * 4 + i) * 3 + j) * 8, ((b * 4 + i) * 3 + j + 1) * 8);
    const middle = gather(x, tensor1d([2, 0], 'int32'), 1); // [2, 2, 3, 8]
    expect(Array.from(await middle.data())).toEqual([0, 1].flatMap((b) => [2, 0].flatMap((i) => [0, 1, 2].flatMap((j) => at(b, i, j)))));
    const batched = gather(x, tensor([[1], [3]], [2, 1], 'int32'), 1, 1); // batch b takes row ids[b]
    expect(batched.shape).toEqual([2, 1, 3, 8]);
    expect(Array.from(await batched.data())).toEqual([...[0, 1, 2].flatMap((j) => at(0, 1, j)), ...[0, 1, 2].flatMap((j) => at(1, 3, j))]);
    [x, middle, batched].forEach((t) => t.dispose());
  });

  it('throws for an index out of range, keeps short rows on the original kernel, leaks nothing', async () => {
    await useBackend('wasm');
    const x = tensor2d(Array.from({ length: 40 }, (_, i) => i), [4, 10]);
    expect(() => gather(x, tensor1d([1, 4], 'int32'))).toThrow('GatherV2: index 4 at position 1 is outside [0, 3]');
    expect(() => gather(x, tensor1d([-1], 'int32'))).toThrow('GatherV2: index -1 at position 0 is outside [0, 3]');
    const columns = gather(x, tensor1d([9, 0], 'int32'), 1); // rows of 1 element: original kernel
    expect(Array.from(await columns.data())).toEqual([0, 1, 2, 3].flatMap((r) => [10 * r + 9, 10 * r]));
    const ids = tensor1d([2, 2, 0], 'int32');
    expect(await leaksOf(() => gather(x, ids).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, columns, ids].forEach((t) => t.dispose());
  });

  it('gathers with batchDims as cpu does, also for rows shorter than 8 (the original kernel got them wrong)', async () => {
    const run = async (backend: string) => {
      await useBackend(backend);
      const out = gather(tensor2d([[1, 2], [3, 4]]), tensor2d([[1], [0]], undefined, 'int32'), 1, 1);
      const wide = gather(tensor3d(Array.from({ length: 24 }, (_, i) => i), [2, 3, 4]), tensor2d([[2, 0], [1, 1]], undefined, 'int32'), 1, 1);
      const values = [Array.from(await out.data()), Array.from(await wide.data())];
      [out, wide].forEach((t) => t.dispose());
      return values;
    };
    const onCpu = await run('cpu');
    expect(onCpu[0]).toEqual([2, 3]);
    expect(await run('wasm')).toEqual(onCpu);
  });

  it('gives an empty result the shape cpu gives, also for short rows (the original kernel added a leading 1), and checks ids as before', async () => {
    const run = async (backend: string) => {
      await useBackend(backend);
      const x = tensor3d([], [0, 3, 4]);
      const outs = [gather(x, tensor1d([0, 2], 'int32'), 1), gather(tensor3d([], [2, 3, 0]), tensor1d([], 'int32'), 0), gather(tensor2d([[1, 2]]), tensor1d([], 'int32'))];
      const shapes = outs.map((t) => t.shape);
      const ids = tensor1d([3], 'int32');
      const thrown = (() => { try { gather(x, ids, 1); return 'no error'; } catch { return 'throws'; } })();
      [x, ids, ...outs].forEach((t) => t.dispose());
      return { shapes, thrown };
    };
    const onCpu = await run('cpu');
    expect(onCpu).toEqual({ shapes: [[0, 2, 4], [0, 3, 0], [0, 2]], thrown: 'throws' });
    expect(await run('wasm')).toEqual(onCpu);
  });
});
