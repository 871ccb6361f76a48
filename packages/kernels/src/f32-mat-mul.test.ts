import { add, engine, fused, randomNormal, reshape, sum, tensor, tensor1d, tensor2d, variable, variableGrads, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { GELU_KERNEL } from './tfjs-fills/wasm-gelu-fill.js';
import { LAYER_NORM_KERNEL } from './tfjs-fills/wasm-layer-norm-fill.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf } from '@attnkit/test-utils';
import { f32MatMul64 } from './f32-mat-mul64.js';
import { f32Kernels } from './f32-kernels.js';
import { f32MatMul } from './f32-mat-mul.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';

// [N, K, M]: every tail of the 4-row x 8-column tiles and of the 4-wide packing, one panel less than a
// thread count, more columns than one 64-column packing block, a MiniLM projection slice
const SHAPES: ReadonlyArray<readonly [number, number, number]> = [[1, 1, 1], [1, 33, 8], [1, 40, 16], [1, 64, 17], [1, 576, 131], [1, 7, 200], [3, 5, 7], [4, 8, 8], [5, 37, 23], [13, 77, 131], [65, 129, 67], [130, 384, 385]];

const make = ([n, k, m]: readonly [number, number, number], seed: number) => ({
  x: randomNormal([n, k], 0, 1, 'float32', seed),
  weight: randomNormal([m, k], 0, 0.2, 'float32', seed + 1),
  bias: randomNormal([m], 0, 0.5, 'float32', seed + 2),
});

describe('f32MatMul', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it("runs the 'simd' kernel here (and 'relaxed-simd' only where the engine validates it)", () => {
    expect(f32Kernels().supported).toContain('simd');
    expect(f32Kernels().preferred).toBe(f32Kernels().supported[0]);
  });

  it.each(SHAPES)("'simd' equals tfjs-wasm's fused matMul bit for bit, with and without a bias ([N, K, M] = [%i, %i, %i])", async (n, k, m) => {
    await useTfjsBackend('wasm');
    const { x, weight, bias } = make([n, k, m], 10 * n + m);
    for (const b of [bias, undefined]) {
      const want = fused.matMul({ a: x, b: weight, transposeB: true, ...(b === undefined ? {} : { bias: b }) });
      const got = f32MatMul(x, weight, b, { kernel: 'simd' });
      expect(got.shape).toEqual([n, m]);
      expect(Array.from(got.dataSync()), b === undefined ? 'no bias' : 'bias').toEqual(Array.from(want.dataSync()));
    }
  });

  it.each(SHAPES)('every kernel is within the float32 rounding bound of the float64 product, on cpu and wasm ([N, K, M] = [%i, %i, %i])', async (n, k, m) => {
    const { x, weight, bias } = make([n, k, m], 3 * k + n);
    const reference = f32MatMul64(x.dataSync() as Float32Array, n, weight.dataSync() as Float32Array, m, k, bias.dataSync() as Float32Array);
    for (const backend of ['cpu', 'wasm'] as const) {
      await useTfjsBackend(backend);
      for (const kernel of f32Kernels().supported) {
        const got = f32MatMul(tensor(x.dataSync(), [n, k]), tensor(weight.dataSync(), [m, k]), tensor(bias.dataSync(), [m]), { kernel }).dataSync();
        const error = Math.max(...Array.from(got, (v, i) => Math.abs(v - (reference.values[i] as number))));
        expect(error, `${backend} ${kernel}`).toBeLessThanOrEqual(reference.float32Bound);
      }
    }
  });

  it('keeps leading dimensions: [B, T, K] -> [B, T, M], the rows of the flat product', async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias } = make([6, 20, 12], 5);
    const flat = f32MatMul(x, weight, bias);
    const shaped = f32MatMul(reshape(x, [2, 3, 20]), weight, bias);
    expect(shaped.shape).toEqual([2, 3, 12]);
    expect(Array.from(shaped.dataSync())).toEqual(Array.from(flat.dataSync()));
  });

  it('computes K = 0 as the bias, and N = 0 or M = 0 as an empty result', async () => {
    await useTfjsBackend('wasm');
    const bias = tensor1d([1, -2, 3]);
    expect(Array.from(f32MatMul(tensor2d([], [2, 0]), tensor2d([], [3, 0]), bias).dataSync())).toEqual([1, -2, 3, 1, -2, 3]);
    expect(f32MatMul(tensor2d([], [0, 4]), randomNormal([3, 4]), bias).shape).toEqual([0, 3]);
  });

  it("fuses 'gelu': the backend's GELU kernel applied to the product, bit for bit, on every kernel", async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias } = make([13, 77, 131], 7);
    for (const kernel of f32Kernels().supported) {
      const unfused = engine().runKernel(GELU_KERNEL, { x: f32MatMul(x, weight, bias, { kernel }) }) as Tensor;
      expect(Array.from(f32MatMul(x, weight, bias, { kernel, activation: 'gelu' }).dataSync()), kernel).toEqual(Array.from(unfused.dataSync()));
    }
  });

  it("fuses residualLayerNorm: tfjs add + the backend's LayerNorm kernel on the product, bit for bit, on every kernel", async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias } = make([13, 40, 45], 9);
    const [residual, gamma, beta] = [randomNormal([13, 45], 0, 2, 'float32', 1), randomNormal([45], 1, 0.2, 'float32', 2), randomNormal([45], 0, 0.2, 'float32', 3)];
    for (const kernel of f32Kernels().supported) {
      const unfused = engine().runKernel(LAYER_NORM_KERNEL, { x: add(f32MatMul(x, weight, bias, { kernel }), residual), gamma, beta }, { epsilon: 1e-12 }) as Tensor;
      const got = f32MatMul(x, weight, bias, { kernel, residualLayerNorm: { residual, gamma, beta, epsilon: 1e-12 } });
      expect(Array.from(got.dataSync()), kernel).toEqual(Array.from(unfused.dataSync()));
    }
  });

  it("never uses a weight's kept panels for other values: a Variable after assign, a new tensor, a disposed one's successor", async () => {
    await useTfjsBackend('wasm');
    const x = randomNormal([7, 12], 0, 1, 'float32', 21);
    const w = variable(randomNormal([10, 12], 0, 1, 'float32', 22));
    const expected = (weight: Tensor) => Array.from(fused.matMul({ a: x, b: weight, transposeB: true }).dataSync());
    expect(Array.from(f32MatMul(x, w, undefined, { kernel: 'simd' }).dataSync())).toEqual(expected(w));
    w.assign(randomNormal([10, 12], 0, 1, 'float32', 23));
    expect(Array.from(f32MatMul(x, w, undefined, { kernel: 'simd' }).dataSync())).toEqual(expected(w));
    for (let i = 0; i < 3; i++) {
      const fresh = randomNormal([10, 12], 0, 1, 'float32', 30 + i); // may land where the last one was freed
      expect(Array.from(f32MatMul(x, fresh, undefined, { kernel: 'simd' }).dataSync())).toEqual(expected(fresh));
      fresh.dispose();
    }
    // and a reshape of a kept weight with other sizes is computed from its values, not the panels
    const square = randomNormal([12, 12], 0, 1, 'float32', 40);
    f32MatMul(x, square, undefined, { kernel: 'simd' });
    const halves = reshape(square, [24, 6]);
    const x6 = randomNormal([3, 6], 0, 1, 'float32', 41);
    expect(Array.from(f32MatMul(x6, halves, undefined, { kernel: 'simd' }).dataSync())).toEqual(Array.from(fused.matMul({ a: x6, b: halves, transposeB: true }).dataSync()));
  });

  it('leaks nothing, fused or not', async () => {
    await useTfjsBackend('wasm');
    const { x, weight, bias } = make([9, 16, 24], 11);
    const [residual, gamma, beta] = [randomNormal([9, 24]), randomNormal([24]), randomNormal([24])];
    expect(await leaksOf(() => f32MatMul(x, weight, bias).dispose())).toEqual({ tensors: 0, bytes: 0 });
    expect(await leaksOf(() => f32MatMul(x, weight, bias, { activation: 'gelu', residualLayerNorm: { residual, gamma, beta, epsilon: 1e-5 } }).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });
});

describe('f32MatMul: bad inputs', () => {
  const inputs = () => ({
    x: randomNormal([2, 4]), ints: tensor2d([[1, 2]], [1, 2], 'int32'), w: randomNormal([3, 4]), w5: randomNormal([3, 5]), w2: randomNormal([3, 2]), flat: randomNormal([4]),
    b4: randomNormal([4]), b3: randomNormal([3]), r24: randomNormal([2, 4]),
  });
  let t: ReturnType<typeof inputs>;
  beforeAll(async () => {
    await useTfjsBackend('wasm');
    t = inputs();
  });
  it.each([
    ['x of the wrong width', () => f32MatMul(t.x, t.w5), /'x' must be a float32 tensor \[\.\.\., K\] with K = 5 \(weight is \[M, K\] = \[3, 5\]\); received rank 2 \[2, 4\]/],
    ['an int32 x', () => f32MatMul(t.ints, t.w2), /'x'/],
    ['a rank-1 weight', () => f32MatMul(t.x, t.flat), /'weight' must be/],
    ['a bias of the wrong length', () => f32MatMul(t.x, t.w, t.b4), /'bias' must be a float32 tensor \[M\] with M = 3/],
    ['an unknown activation', () => f32MatMul(t.x, t.w, undefined, { activation: 'relu' as never }), /'activation' must be one of 'gelu' \(or absent\); received string 'relu'/],
    ['an unknown option', () => f32MatMul(t.x, t.w, undefined, { kernal: 'simd' } as never), /unknown key 'kernal'/],
    ['an unknown kernel', () => f32MatMul(t.x, t.w, undefined, { kernel: 'avx' as never }), /'kernel' must be one of 'relaxed-simd', 'simd'; received string 'avx'/],
    ['a residual of another shape', () => f32MatMul(t.x, t.w, undefined, { residualLayerNorm: { residual: t.r24, gamma: t.b3, beta: t.b3, epsilon: 1e-5 } }), /residualLayerNorm.residual' must be a float32 tensor of the output's shape \[2, 3\]; received \[2, 4\]/],
  ] as const)('refuses %s with InvalidArgumentError, leaking nothing', async (_, call, message) => {
    const leaks = await leaksOf(() => {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
  });

  it("refuses 'relaxed-simd' by name with KernelUnavailableError where the engine lacks it", () => {
    if (f32Kernels().supported.includes('relaxed-simd')) return; // Node ≥ 22 or the flag: covered by the tests above
    expect(() => f32MatMul(randomNormal([2, 4]), randomNormal([3, 4]), undefined, { kernel: 'relaxed-simd' })).toThrow(KernelUnavailableError);
  });

  it('throws InferenceOnlyError under a gradient tape instead of silently cutting the gradient', async () => {
    await useTfjsBackend('cpu');
    const x = randomNormal([2, 4]).variable();
    expect(() => variableGrads(() => sum(f32MatMul(x, randomNormal([3, 4]))) as never, [x])).toThrow(InferenceOnlyError);
  });
});
