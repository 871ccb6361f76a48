// Test-only helpers (left out of the published files): random int8 GEMM cases and the checks
// every kernel must pass, bit for bit, against int8MatMulReference.
import { expect } from 'vitest';
import { seededIntegers } from '@attnkit/test-utils';
import { dequantizeAccumulators } from '../dequantize-accumulators.js';
import type { Int8GemmKernel, Int8GemmShape } from '../int8-gemm-kernel.js';
import { int8MatMulReference } from '../int8-mat-mul-reference.js';
import { quantizeRows } from '../quantize-rows.js';

/** Shapes [N, M, K]: K off multiples of 16, N = 1 (its own path: M = 1 to 6 covers every tail of its four-column steps), M = 1, zero sizes, tile tails, K up to 4096. */
export const INT8_SHAPES: ReadonlyArray<readonly [number, number, number]> = [
  [1, 1, 1], [1, 1, 15], [1, 1, 16], [1, 1, 17], [1, 7, 33], [5, 1, 31], [3, 2, 8], [4, 2, 16], [4, 3, 7],
  [7, 9, 100], [13, 131, 77], [65, 67, 129], [33, 130, 384], [2, 5, 1000], [8, 3, 4096], [1, 64, 4095],
  [1, 2, 9], [1, 3, 16], [1, 4, 40], [1, 5, 24], [1, 6, 100], [1, 131, 77],
  [0, 5, 7], [5, 0, 7], [0, 0, 0], [3, 4, 0],
];

/** A case: A int8 [N, K] in [-levels, levels] (or the extreme ±levels only), B int8 [M, K] in [-127, 127], scales, bias. */
export function int8Case([rows, cols, depth]: readonly [number, number, number], levels: number, seed: number, extreme = false) {
  const next = seededIntegers(seed);
  const draw = (limit: number) => (extreme ? (next(2) === 0 ? -limit : limit) : next(2 * limit + 1) - limit);
  const a = Int8Array.from({ length: rows * depth }, () => draw(levels));
  const b = Int8Array.from({ length: cols * depth }, () => draw(127));
  const rowScales = Float32Array.from({ length: rows }, () => (1 + next(1000)) / 7919);
  const colScales = Float32Array.from({ length: cols }, () => (1 + next(1000)) / 104729);
  const bias = Float32Array.from({ length: cols }, () => (next(2001) - 1000) / 313);
  const shape: Int8GemmShape = { rows, cols, depth };
  return { a, b, rowScales, colScales, bias, shape };
}

/** Checks `kernel` on every shape (random and extreme values): int32 accumulators and float outputs bit-exact. */
export function expectExactOnAllShapes(kernel: Int8GemmKernel): number {
  let checked = 0;
  INT8_SHAPES.forEach((dims, index) => {
    for (const extreme of [false, true]) {
      const { a, b, rowScales, colScales, bias, shape } = int8Case(dims, kernel.activationLevels, 1000 + index, extreme);
      const want = int8MatMulReference(a, b, shape);
      const label = `${kernel.name} [N, M, K] = [${dims.join(', ')}]${extreme ? ' ±extremes' : ''}`;
      expect(Array.from(kernel.accumulate(a, b, shape)), label).toEqual(Array.from(want));
      expect(Array.from(kernel.multiply(a, b, shape, rowScales, colScales, bias)), `${label} with bias`).toEqual(Array.from(dequantizeAccumulators(want, rowScales, colScales, bias)));
      expect(Array.from(kernel.multiply(a, b, shape, rowScales, colScales)), `${label} without bias`).toEqual(Array.from(dequantizeAccumulators(want, rowScales, colScales)));
      checked += 1;
    }
  });
  return checked;
}

/**
 * Checks that `kernel.quantizedMultiply` (the kernel's own quantizer, then the product) equals
 * quantizeRows + multiply bit for bit: random rows, K tails, exact ties (scale 1: x = ±k.5), tiny
 * and huge magnitudes, and zero rows.
 */
export function expectQuantizerMatches(kernel: Int8GemmKernel): void {
  const next = seededIntegers(99);
  const levels = kernel.activationLevels;
  for (const [rows, depth] of [[7, 37], [3, 16], [5, 1], [2, 300]] as const) {
    const x = Float32Array.from({ length: rows * depth }, (_, i) => {
      const row = Math.floor(i / depth);
      if (row === 0) return i % depth === 0 ? levels : ((i % 23) - 11) + 0.5; // scale exactly 1: ties at ±k.5
      if (row === 1) return 0;
      if (row === 2) return ((next(2001) - 1000) / 1000) * 1e-30;
      if (row === 3) return ((next(2001) - 1000) / 1000) * 3e37;
      return (next(200_001) - 100_000) / 997;
    });
    const cols = 3;
    const { b, colScales, bias } = int8Case([0, cols, depth], levels, rows);
    const { values, scales } = quantizeRows(x, rows, depth, levels, 'test', 'x');
    const want = kernel.multiply(values, b, { rows, cols, depth }, scales, colScales, bias);
    expect(Array.from(kernel.quantizedMultiply(x, b, { rows, cols, depth }, colScales, bias, 'test')), `${kernel.name} [${rows}, ${depth}]`).toEqual(Array.from(want));
    expect(Array.from(kernel.quantizedMultiply(x, b, { rows, cols, depth }, colScales, undefined, 'test'))).toEqual(Array.from(kernel.multiply(values, b, { rows, cols, depth }, scales, colScales)));
  }
  const error = (() => {
    try {
      kernel.quantizedMultiply(Float32Array.of(1, 2, 3, 4, 5, Number.NEGATIVE_INFINITY), new Int8Array(6), { rows: 2, cols: 2, depth: 3 }, new Float32Array(2), undefined, 'int8MatMul');
    } catch (e) {
      return e as Error;
    }
    return undefined;
  })();
  expect(error?.message).toBe("int8MatMul: 'x' must be finite values only (int8 quantization scales each row by its largest magnitude); received -Infinity at flat index 5. Replace or mask the non-finite values first.");
}
