import { engine, fused, tensor, tidy, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { maxDifference } from '../max-difference.js';
import { useBackend } from '../use-backend.js';
import { originalWasmFusedMatMul } from './wasm-fused-matmul-fill.js';

const a = [[1, 2], [3, 4], [5, 6]]; // [3, 2]
const w = [[1, 0], [0, 1], [1, 1], [2, -1]]; // [4, 2], used transposed: x Wᵀ
const bias = [10, 20, 30, 40];
const expected = a.flatMap(([p, q]) => w.map(([r, s], j) => p! * r! + q! * s! + bias[j]!));

describe('wasm _FusedMatMul fill', () => {
  it('useBackend("wasm") reports the fill and fused.matMul(transposeB, bias) is right', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toEqual(['_FusedMatMul', 'UnsortedSegmentSum', 'BatchMatMul']);
    const y = tidy(() => fused.matMul({ a: tensor(a), b: tensor(w), transposeB: true, bias: tensor(bias) }));
    expect(Array.from(await y.data())).toEqual(expected);
    y.dispose();
  });

  it("pins the upstream defect: tfjs-backend-wasm's own kernel is wrong here (delete the fill when this fails)", async () => {
    await useBackend('wasm');
    const kernel = originalWasmFusedMatMul();
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
});
