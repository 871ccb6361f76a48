import { describe, expect, it } from 'vitest';
import { f32MatMul64 } from './f32-mat-mul64.js';
import { seededNormals } from './testing/fused-attention-cases.js';
import { WasmF32Gemm } from './wasm-f32-gemm.js';
import { F32_GEMM_SIMD_WASM } from './wasm/f32-gemm-simd.wasm.js';

// The module's own single-threaded instance (no threads variant given): the driver's layout and copies.
const simd = new WasmF32Gemm('simd', F32_GEMM_SIMD_WASM);
const request = (rows: number, cols: number, depth: number, inPlace = false) => {
  const x = seededNormals(rows * depth, 1);
  const weight = seededNormals(cols * depth, 2);
  const bias = seededNormals(cols, 3);
  return { x, weight, bias, request: { read: () => x, weight: () => weight, bias, rows, cols, depth, activation: undefined, residualLayerNorm: undefined, inPlace, caller: 'test' } };
};

describe('WasmF32Gemm', () => {
  it('validates here and multiplies within the float32 rounding bound, through growing memory', () => {
    expect(simd.supported).toBe(true);
    for (const [rows, cols, depth] of [[2, 3, 4], [300, 70, 200], [9, 17, 5]] as const) {
      const { x, weight, bias, request: r } = request(rows, cols, depth);
      const reference = f32MatMul64(x, rows, weight, cols, depth, bias);
      const got = simd.multiply(r);
      expect(got).toHaveLength(rows * cols);
      expect(Math.max(...Array.from(got, (v, i) => Math.abs(v - (reference.values[i] as number))))).toBeLessThanOrEqual(reference.float32Bound);
    }
  });

  it('returns a copy by default and a view of its memory with inPlace (overwritten by the next call)', () => {
    const copy = simd.multiply(request(4, 8, 8).request);
    const view = simd.multiply(request(4, 8, 8, true).request);
    expect(Array.from(view)).toEqual(Array.from(copy));
    simd.multiply({ ...request(4, 8, 8).request, bias: new Float32Array(8).fill(100) });
    expect(Array.from(view)).not.toEqual(Array.from(copy)); // the view now shows the later call
  });

  it('packs a keyed weight once and keeps its panels: later calls read no weight and give the same numbers', () => {
    const { request: r } = request(33, 41, 29);
    const kernel = new WasmF32Gemm('simd', F32_GEMM_SIMD_WASM);
    const unkeyed = kernel.multiply(r);
    let reads = 0;
    const keyed = { ...r, weight: () => (reads++, r.weight()), weightKey: { key: 7, owner: {} } };
    expect(Array.from(kernel.multiply(keyed))).toEqual(Array.from(unkeyed));
    expect(Array.from(kernel.multiply(keyed))).toEqual(Array.from(unkeyed));
    expect(reads).toBe(1);
    expect(kernel.packedWeights).toEqual({ count: 1, bytes: 4 * 48 * 29 }); // whole 8-column panels: 41 -> 48 columns
    // the same key with another shape (a reshape of the same values) is packed for that call only
    const { request: other } = request(33, 29, 41);
    expect(Array.from(kernel.multiply({ ...other, weightKey: { key: 7, owner: {} } }))).toEqual(Array.from(kernel.multiply(other)));
    expect(kernel.packedWeights.count).toBe(1);
  });

  it('keeps each keyed weight apart (two weights alternating, as the layers of a model)', () => {
    const kernel = new WasmF32Gemm('simd', F32_GEMM_SIMD_WASM);
    const [first, second] = [request(9, 17, 5).request, { ...request(9, 17, 5).request, weight: () => seededNormals(17 * 5, 99) }];
    const want = [simd.multiply(first), simd.multiply(second)].map((v) => Array.from(v));
    for (let round = 0; round < 2; round++) {
      expect(Array.from(kernel.multiply({ ...first, weightKey: { key: 1, owner: {} } }))).toEqual(want[0]);
      expect(Array.from(kernel.multiply({ ...second, weightKey: { key: 2, owner: {} } }))).toEqual(want[1]);
    }
    expect(kernel.packedWeights.count).toBe(2);
  });

  it('computes K = 0 as the bias, and returns nothing for N = 0 without reading x', () => {
    expect(Array.from(simd.multiply({ ...request(2, 3, 0).request, bias: Float32Array.of(1, 2, 3) }))).toEqual([1, 2, 3, 1, 2, 3]);
    expect(simd.multiply({ ...request(0, 3, 4).request, read: () => { throw new Error('read'); } })).toHaveLength(0);
  });
});
