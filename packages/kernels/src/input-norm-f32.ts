import { checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { checkFlatArray } from './check-flat-array.js';

/** The values of a normalization applied to each row of a product's input (`int8MatMul`'s `inputNorm`). */
export interface InputNormValues {
  /** `'rmsNorm'`: `x / √(mean(x²) + eps) · weight` (transformers' LlamaRMSNorm); `'layerNorm'`: `(x − mean) / √(var + eps) · weight + bias` (nn.LayerNorm). */
  readonly kind: 'rmsNorm' | 'layerNorm';
  /** `[K]`. */
  readonly weight: Float32Array;
  /** `[K]`, `'layerNorm'` only. */
  readonly bias?: Float32Array | undefined;
  /** Inside the square root: finite, ≥ 0. */
  readonly epsilon: number;
}

const f = Math.fround;

/** The sum of a row's 4-lane partial sums as the kernels take it: (l0 + l1) + (l2 + l3), float32. */
const hsum = (lanes: readonly number[]) => f(f(lanes[0]! + lanes[1]!) + f(lanes[2]! + lanes[3]!));

/**
 * Normalizes each row of `width` floats of `x` in place, in float32 arithmetic exactly as the wasm
 * kernels do (csrc/rms-norm.h, csrc/layer-norm.h: sums over 4-lane partial sums plus a scalar tail),
 * so the JS route of a product with `inputNorm` gives the numbers of the wasm ones' prologue.
 * Shapes: `x [rows, width]`, `weight`, `bias` `[width]`. Arrays of other types or lengths are
 * `InvalidArgumentError`s.
 *
 * @example
 * inputNormF32(x, { kind: 'rmsNorm', weight, epsilon: 1e-5 }, rows, 576); // x [rows, 576], in place
 */
export function inputNormF32(x: Float32Array, values: InputNormValues, rows: number, width: number): Float32Array {
  const caller = 'inputNormF32';
  for (const [name, value] of [['rows', rows], ['width', width]] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new InvalidArgumentError({ caller, argument: name, expected: 'an integer ≥ 0', received: describeValue(value) });
  }
  checkObject(values, { caller, argument: 'values', expected: 'an object { kind, weight, bias?, epsilon }' });
  const { kind, weight, bias, epsilon } = values;
  if (kind !== 'rmsNorm' && kind !== 'layerNorm') throw new InvalidArgumentError({ caller, argument: 'values.kind', expected: "'rmsNorm' or 'layerNorm'", received: describeValue(kind) });
  if (kind === 'rmsNorm' && bias !== undefined) throw new InvalidArgumentError({ caller, argument: 'values.bias', expected: "no bias with kind 'rmsNorm' (RMSNorm has none)", received: describeValue(bias) });
  const arrays: [string, unknown, number][] = [['x', x, rows * width], ['values.weight', weight, width], ...(kind === 'layerNorm' ? [['values.bias', bias, width] as [string, unknown, number]] : [])];
  for (const [name, array, length] of arrays) {
    checkFlatArray(array, 'Float32Array', length, caller, name);
    if ((array as Float32Array).length !== length) throw new InvalidArgumentError({ caller, argument: name, expected: `a Float32Array of ${length} elements`, received: `${(array as Float32Array).length}` });
  }
  if (typeof epsilon !== 'number' || !(epsilon >= 0) || !Number.isFinite(epsilon)) throw new InvalidArgumentError({ caller, argument: 'values.epsilon', expected: 'a finite number ≥ 0', received: describeValue(epsilon) });
  return kind === 'rmsNorm' ? rmsNormRows(x, weight, rows, width, f(epsilon)) : layerNormRowsF32(x, weight, bias as Float32Array, rows, width, epsilon);
}

function rmsNormRows(x: Float32Array, weight: Float32Array, rows: number, width: number, eps: number): Float32Array {
  const vec = width & ~3;
  for (let row = 0; row < rows; row++) {
    const o = row * width;
    const lanes = [0, 0, 0, 0];
    let sum = 0;
    for (let i = 0; i < vec; i++) lanes[i % 4] = f(lanes[i % 4]! + f(x[o + i]! * x[o + i]!));
    for (let i = vec; i < width; i++) sum = f(sum + f(x[o + i]! * x[o + i]!));
    const inv = f(1 / f(Math.sqrt(f(f(f(hsum(lanes) + sum) / width) + eps))));
    for (let i = 0; i < width; i++) x[o + i] = f(f(x[o + i]! * inv) * weight[i]!);
  }
  return x;
}

/**
 * LayerNorm of each row of `width` floats of `x`, in place, as csrc/layer-norm.h (the mean over
 * 4-lane partial sums plus a scalar tail, then the biased variance in a second pass), unchecked:
 * for `inputNormF32` and `residualLayerNormF32`, which check their arrays.
 */
export function layerNormRowsF32(x: Float32Array, gamma: Float32Array, beta: Float32Array, rows: number, width: number, epsilon: number): Float32Array {
  const vec = width & ~3;
  const eps = f(epsilon);
  for (let row = 0; row < rows; row++) {
    const o = row * width;
    const lanes = [0, 0, 0, 0];
    let sum = 0;
    for (let i = 0; i < vec; i++) lanes[i % 4] = f(lanes[i % 4]! + x[o + i]!);
    for (let i = vec; i < width; i++) sum = f(sum + x[o + i]!);
    const mean = f(f(hsum(lanes) + sum) / width);
    lanes.fill(0);
    sum = 0;
    for (let i = 0; i < vec; i++) {
      const d = f(x[o + i]! - mean);
      lanes[i % 4] = f(lanes[i % 4]! + f(d * d));
    }
    for (let i = vec; i < width; i++) {
      const d = f(x[o + i]! - mean);
      sum = f(sum + f(d * d));
    }
    const inv = f(1 / f(Math.sqrt(f(f(f(hsum(lanes) + sum) / width) + eps))));
    for (let i = 0; i < width; i++) x[o + i] = f(f(f(f(x[o + i]! - mean) * inv) * gamma[i]!) + beta[i]!);
  }
  return x;
}
