import { tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { seededValues } from '../seeded-values.js';
import { F32_KERNEL_NAMES, type F32KernelName, f32Kernels, f32MatMul, f32MatMul64 } from '@attnkit/kernels';
import { halfExactValues } from './half-exact-values.js';
import { once } from './once.js';
import { toleranceOf } from './tolerance-of.js';

/** A product `x [...leading, K] · weight [M, K]ᵀ`, with a bias or not. */
interface F32Shape {
  readonly leading: readonly number[];
  readonly depth: number;
  readonly cols: number;
  readonly bias: boolean;
  readonly seed: number;
}

const SHAPES: readonly F32Shape[] = [
  { leading: [2, 7], depth: 48, cols: 40, bias: true, seed: 201 }, // BERT-like: [B, T, E] tokens through a projection
  { leading: [3, 5], depth: 37, cols: 23, bias: false, seed: 202 }, // K off multiples of 4, M off multiples of 8, N off multiples of 4
];

function inputs(shape: F32Shape) {
  const rows = shape.leading.reduce((n, d) => n * d, 1);
  const x = halfExactValues(shape.seed, rows * shape.depth, -1, 1); // [N, K], uploaded: exact at any backend precision
  const weight = halfExactValues(shape.seed + 1, shape.cols * shape.depth, -0.125, 0.125); // [M, K]
  const bias = shape.bias ? halfExactValues(shape.seed + 2, shape.cols, -0.5, 0.5) : undefined; // [M]
  return { rows, x, weight, bias };
}

function unavailable(kernel: F32KernelName): string | undefined {
  if (f32Kernels().supported.includes(kernel)) return undefined;
  return kernel === 'relaxed-simd' ? 'no relaxed SIMD in this engine (Node 20: node --experimental-wasm-relaxed-simd)' : `the ${kernel} kernel does not validate in this engine`;
}

function f32Case(kernel: F32KernelName, shape: F32Shape): ConformanceCase {
  const data = once(() => inputs(shape));
  const reference = once(() => f32MatMul64(data().x, data().rows, data().weight, shape.cols, shape.depth, data().bias));
  const label = `[${[...shape.leading, shape.depth]}]x[${shape.cols},${shape.depth}]ᵀ`;
  return {
    name: `f32MatMul ${kernel}${shape.bias ? ' + bias' : ''} ${label}`,
    kernels: [], // runs on the CPU whatever the backend: only uploads and reads back
    get tolerance() {
      return toleranceOf(reference());
    },
    compute: () => {
      const { x, weight, bias } = data();
      return f32MatMul(tensor(x, [...shape.leading, shape.depth]), tensor(weight, [shape.cols, shape.depth]), bias && tensor(bias, [shape.cols]), { kernel });
    },
    reference: () => reference().values,
    available: () => unavailable(kernel),
  };
}

/**
 * `f32MatMul` on each float32 kernel (`'relaxed-simd'`, `'simd'`), on a BERT-like projection
 * `[2, 7, 48]·[40, 48]ᵀ` with a bias and on `[3, 5, 37]·[23, 37]ᵀ` (K, M and N off the tile
 * sizes), against the float64 product. A kernel this engine lacks reports `unavailable`.
 */
export const f32MatMulCases: readonly ConformanceCase[] = F32_KERNEL_NAMES.flatMap((kernel) => SHAPES.map((shape) => f32Case(kernel, shape)));
