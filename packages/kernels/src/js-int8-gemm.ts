import { geluF32 } from './erf-f32.js';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import type { Int8Activation, Int8GemmKernel, Int8GemmShape } from './int8-gemm-kernel.js';
import { quantizeRows } from './quantize-rows.js';
import { residualLayerNormF32 } from './residual-layer-norm-f32.js';

/** `A·Bᵀ` in int32 JavaScript arithmetic, four output columns at a time (each A row read once per four columns). */
function accumulate(a: Int8Array, b: Int8Array, { rows, cols, depth }: Int8GemmShape): Int32Array {
  const out = new Int32Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const row = i * depth;
    let j = 0;
    for (; j + 4 <= cols; j += 4) {
      const [b0, b1, b2, b3] = [j * depth, (j + 1) * depth, (j + 2) * depth, (j + 3) * depth];
      let [s0, s1, s2, s3] = [0, 0, 0, 0];
      for (let p = 0; p < depth; p++) {
        const x = a[row + p] as number;
        s0 = (s0 + x * (b[b0 + p] as number)) | 0;
        s1 = (s1 + x * (b[b1 + p] as number)) | 0;
        s2 = (s2 + x * (b[b2 + p] as number)) | 0;
        s3 = (s3 + x * (b[b3 + p] as number)) | 0;
      }
      out.set([s0, s1, s2, s3], i * cols + j);
    }
    for (; j < cols; j++) {
      let sum = 0;
      for (let p = 0; p < depth; p++) sum = (sum + (a[row + p] as number) * (b[j * depth + p] as number)) | 0;
      out[i * cols + j] = sum;
    }
  }
  return out;
}

/** `activation` in place (float32 arithmetic as the wasm kernels' epilogue). */
function activate(out: Float32Array, activation: Int8Activation | undefined): Float32Array {
  if (activation === 'gelu') for (let i = 0; i < out.length; i++) out[i] = geluF32(out[i] as number);
  return out;
}

/**
 * The int8 GEMM in plain JavaScript: the fallback where WebAssembly SIMD is missing. The same
 * integers and float32 results as the `'simd'` kernel, at a fraction of its speed.
 *
 * @example
 * jsInt8Gemm.accumulate(Int8Array.of(1, 2), Int8Array.of(3, 4), { rows: 1, cols: 1, depth: 2 }); // Int32Array [11]
 */
export const jsInt8Gemm: Int8GemmKernel = {
  name: 'js',
  activationLevels: 127,
  accumulate,
  multiply: (a, b, shape, rowScales, colScales, bias, activation) => activate(dequantizeAccumulators(accumulate(a, b, shape), rowScales, colScales, bias), activation),
  quantizedMultiply(x, b, shape, colScales, bias, caller, activation, residualLayerNorm) {
    const { values, scales } = quantizeRows(x, shape.rows, shape.depth, 127, caller, 'x');
    const out = activate(dequantizeAccumulators(accumulate(values, b, shape), scales, colScales, bias), activation);
    return residualLayerNorm === undefined ? out : residualLayerNormF32(out, residualLayerNorm, shape.rows, shape.cols);
  },
};
