import { tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { seededValues } from '../seeded-values.js';
import { INT8_KERNEL_NAMES, type Int8KernelName, int8Kernels, int8MatMul, quantizeWeightPerChannel } from '@attnkit/kernels';
import { halfExactValues } from './half-exact-values.js';
import { int8MatMul64 } from './int8-mat-mul64.js';
import { once } from './once.js';
import { toleranceOf } from './tolerance-of.js';

/** A product `x [...leading, K] · W [K, M]`, with a bias or not; `zeroRow` makes one row of x all zeros (scale 0). */
interface Int8Shape {
  readonly leading: readonly number[];
  readonly depth: number;
  readonly cols: number;
  readonly bias: boolean;
  readonly zeroRow?: number;
  readonly seed: number;
}

const SHAPES: readonly Int8Shape[] = [
  { leading: [2, 7], depth: 48, cols: 40, bias: true, seed: 101 }, // BERT-like: [B, T, E] tokens through a projection
  { leading: [3, 5], depth: 37, cols: 23, bias: false, zeroRow: 4, seed: 102 }, // K off multiples of 16, M and N odd, an all-zero row
];

function inputs(shape: Int8Shape) {
  const rows = shape.leading.reduce((n, d) => n * d, 1);
  const x = halfExactValues(shape.seed, rows * shape.depth, -1, 1); // [N, K], uploaded: exact at any backend precision
  if (shape.zeroRow !== undefined) x.fill(0, shape.zeroRow * shape.depth, (shape.zeroRow + 1) * shape.depth);
  const weight = quantizeWeightPerChannel({ values: seededValues(shape.seed + 1, shape.cols * shape.depth, -0.125, 0.125), inFeatures: shape.depth, outFeatures: shape.cols }); // [M, K], never uploaded
  const bias = shape.bias ? halfExactValues(shape.seed + 2, shape.cols, -0.5, 0.5) : undefined; // [M]
  return { rows, x, weight, bias };
}

function unavailable(kernel: Int8KernelName): string | undefined {
  if (int8Kernels().supported.includes(kernel)) return undefined;
  return kernel === 'relaxed-simd' ? 'no relaxed SIMD in this engine (Node 20: node --experimental-wasm-relaxed-simd)' : `the ${kernel} kernel does not validate in this engine`;
}

function int8Case(kernel: Int8KernelName, shape: Int8Shape): ConformanceCase {
  const data = once(() => inputs(shape));
  // the exact integers, dequantized in float64; tolerance: the float32 epilogue's rounding only (see int8MatMul64)
  const reference = once(() => int8MatMul64(data().x, data().rows, data().weight, data().bias, kernel === 'relaxed-simd' ? 63 : 127));
  const label = `[${[...shape.leading, shape.depth]}]x[${shape.depth},${shape.cols}]`;
  return {
    name: `int8MatMul ${kernel}${shape.bias ? ' + bias' : ''} ${label}`,
    kernels: [], // runs on the CPU whatever the backend: only uploads and reads back
    get tolerance() {
      return toleranceOf(reference());
    },
    compute: () => {
      const { x, weight, bias } = data();
      return int8MatMul(tensor(x, [...shape.leading, shape.depth]), weight, bias && tensor(bias, [shape.cols]), { kernel });
    },
    reference: () => reference().values,
    available: () => unavailable(kernel),
  };
}

/**
 * `int8MatMul` on each int8 kernel (`'relaxed-simd'`, `'simd'`, `'js'`), on a BERT-like projection
 * `[2, 7, 48]·[48, 40]` with a bias and on `[3, 5, 37]·[37, 23]` (K off multiples of 16, M and N
 * odd, one all-zero row), against the exact integer product dequantized in float64. A kernel this
 * engine lacks reports `unavailable`, with the reason.
 */
export const int8MatMulCases: readonly ConformanceCase[] = INT8_KERNEL_NAMES.flatMap((kernel) => SHAPES.map((shape) => int8Case(kernel, shape)));
