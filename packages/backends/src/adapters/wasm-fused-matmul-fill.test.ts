import { engine, fused, memory, reshape, tensor, tensor1d, tensor3d, tidy, transpose, variable, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';
import { withBackend } from '../with-backend.js';
import { describe, expect, it } from 'vitest';
import { maxDifference } from '../max-difference.js';
import { useBackend } from '../use-backend.js';
import { originalWasmKernel } from '@attnkit/kernels';

const a = [[1, 2], [3, 4], [5, 6]]; // [3, 2]
const w = [[1, 0], [0, 1], [1, 1], [2, -1]]; // [4, 2], used transposed: x Wᵀ
const bias = [10, 20, 30, 40];
const expected = a.flatMap(([p, q]) => w.map(([r, s], j) => p! * r! + q! * s! + bias[j]!));

describe('wasm _FusedMatMul fill', () => {
  it('useBackend("wasm") reports the fill and fused.matMul(transposeB, bias) is right', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toEqual(['_FusedMatMul', 'UnsortedSegmentSum', 'BatchMatMul', 'Erf', 'Slice', 'SplitV', 'GatherV2', 'AttnkitGelu', 'AttnkitGeluTanh', 'AttnkitLayerNorm', 'Tile', 'AttnkitMaskedSoftmax', 'AttnkitRmsNorm', 'AttnkitSiluMul', 'AttnkitRotaryHeads', 'AttnkitAttentionRows', 'AttnkitKvAppend', 'AttnkitDecodeAttention', 'Identity', 'Transpose', 'Cumsum', 'Sum', 'Prod', 'Mean', 'Max', 'Min', 'All', 'Any', 'ArgMax', 'ArgMin']);
    const y = tidy(() => fused.matMul({ a: tensor(a), b: tensor(w), transposeB: true, bias: tensor(bias) }));
    expect(Array.from(await y.data())).toEqual(expected);
    y.dispose();
  });

  it("pins the upstream defect: tfjs-backend-wasm's own kernel is wrong here (delete the fill when this fails)", async () => {
    await useBackend('wasm');
    const kernel = originalWasmKernel('_FusedMatMul');
    expect(kernel).toBeDefined();
    const backend = engine().backend as unknown as { readSync(id: object): Float32Array; disposeData(id: object): boolean };
    // the kernel takes the rank-3 views tf.fused.matMul builds: [1, 3, 2] x [1, 4, 2]^T
    const [ta, tb, tbias] = [tensor([a]), tensor([w]), tensor(bias)] as Tensor[];
    const out = kernel!.kernelFunc({ inputs: { a: ta!, b: tb!, bias: tbias! }, attrs: { transposeA: false, transposeB: true, activation: 'linear' }, backend: engine().backend }) as TensorInfo;
    const values = backend.readSync(out.dataId);
    expect(maxDifference(values, expected).maxAbsDiff).toBeGreaterThan(1);
    backend.disposeData(out.dataId);
    [ta, tb, tbias].forEach((t) => t?.dispose());
  });

  it('keeps a transposed copy of a weight: right on reuse, after assign, through another reshape, and freed with the weight', async () => {
    await useBackend('wasm');
    const backend = engine().backend as unknown as { dataIdMap: { numDataIds(): number } };
    const before = backend.dataIdMap.numDataIds();
    const x = tensor(a);
    const initial = tensor(w);
    const weight = variable(initial);
    const run = (b: Tensor, withBias: boolean): number[] => {
      const y = tidy(() => fused.matMul({ a: x, b, transposeB: true, ...(withBias ? { bias: tensor(bias) } : {}) }));
      const values = Array.from(y.dataSync());
      y.dispose();
      return values;
    };
    expect(run(weight, true)).toEqual(expected);
    expect(run(weight, true)).toEqual(expected); // second call uses the kept copy
    expect(run(weight, false)).toEqual(expected.map((v, i) => v - bias[i % 4]!)); // without a bias too
    const doubled = w.map((row) => row.map((v) => 2 * v));
    const next = tensor(doubled);
    weight.assign(next); // a new dataId: the old copy must not be used
    expect(run(weight, false)).toEqual(a.flatMap(([p, q]) => doubled.map(([r, s]) => p! * r! + q! * s!)));
    // the same data seen through a [2, 4] reshape (same dataId, other shape): computed, not the [4, 2] copy
    const view = reshape(weight, [2, 4]);
    const x4 = tensor([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1]]);
    const flat = doubled.flat();
    const viewed = tidy(() => fused.matMul({ a: x4, b: view, transposeB: true }));
    const rows = [flat.slice(0, 4), flat.slice(4, 8)];
    expect(Array.from(viewed.dataSync())).toEqual([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1]].flatMap((r) => rows.map((c) => r.reduce((s, v, i) => s + v * c[i]!, 0))));
    [viewed, view, x4, x, weight, initial, next].forEach((t) => t.dispose());
    expect(backend.dataIdMap.numDataIds()).toBe(before); // the kept copies went with their sources
  });

  it('adds the bias right to batched products (the original gets every row after the first wrong), with each fused activation and transposes', async () => {
    await useBackend('wasm');
    const a = tensor3d([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [2, 2, 3]);
    const b = tensor3d([1, 0, 2, 1, 0, 1, 3, 1, 1, 2, 0, 1, 1, 1, 1, 1, 0, 2, 1, 1, 2, 0, 1, 1], [2, 3, 4]);
    const bias = tensor1d([1, -20, 3, -4]);
    const alpha = tensor1d([0.5, 0.25, 0.125, 2]);
    const before = memory().numTensors;
    for (const activation of ['linear', 'relu', 'relu6', 'elu', 'sigmoid', 'leakyrelu', 'prelu'] as const) {
      for (const [transposeA, transposeB] of [[false, false], [true, false], [false, true], [true, true]] as const) {
        const args = { a: transposeA ? transpose(a, [0, 2, 1]) : a, b: transposeB ? transpose(b, [0, 2, 1]) : b, transposeA, transposeB, bias, activation, ...(activation === 'prelu' ? { preluActivationWeights: alpha } : {}), ...(activation === 'leakyrelu' ? { leakyreluAlpha: 0.1 } : {}) };
        const read = (backend: string) => withBackend(backend, async () => {
          const out = tidy(() => fused.matMul(args));
          const values = await out.data();
          out.dispose();
          return values;
        });
        const [onWasm, onCpu] = [await read('wasm'), await read('cpu')];
        expect({ activation, transposeA, transposeB, diff: maxDifference(onWasm, onCpu).maxAbsDiff < 1e-5 }).toEqual({ activation, transposeA, transposeB, diff: true });
        if (transposeA) args.a.dispose();
        if (transposeB) args.b.dispose();
      }
    }
    expect(memory().numTensors).toBe(before);
    [a, b, bias, alpha].forEach((t) => t.dispose());
  });
});
