import { checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { checkFlatArray } from './check-flat-array.js';
import { layerNormRowsF32 } from './input-norm-f32.js';

/** The values of a residual LayerNorm epilogue: `out = LayerNorm(out + residual) · gamma + beta` per row of M. */
export interface ResidualLayerNormValues {
  /** `[N, M]`, added to the product before the normalisation. */
  readonly residual: Float32Array;
  /** `[M]`. */
  readonly gamma: Float32Array;
  /** `[M]`. */
  readonly beta: Float32Array;
  /** Added to the biased variance (PyTorch's `eps`): finite, ≥ 0. */
  readonly epsilon: number;
}

const f = Math.fround;

/**
 * `out[i] = LayerNorm(out[i] + residual[i]) · gamma + beta` for each row of `width` floats, in
 * place, in float32 arithmetic exactly as the wasm kernels' epilogue (csrc/residual-layer-norm.h)
 * and the wasm backend's LayerNorm kernel do it: the mean over 4-lane partial sums plus a scalar
 * tail, then the biased variance in a second pass. Shapes: `out`, `residual` `[rows, width]`,
 * `gamma`, `beta` `[width]`. Arrays of other types or lengths are `InvalidArgumentError`s.
 *
 * @example
 * residualLayerNormF32(out, { residual, gamma, beta, epsilon: 1e-12 }, rows, 384);
 */
export function residualLayerNormF32(out: Float32Array, values: ResidualLayerNormValues, rows: number, width: number): Float32Array {
  const caller = 'residualLayerNormF32';
  for (const [name, value] of [['rows', rows], ['width', width]] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new InvalidArgumentError({ caller, argument: name, expected: 'an integer ≥ 0', received: describeValue(value) });
  }
  checkObject(values, { caller, argument: 'values', expected: 'an object { residual, gamma, beta, epsilon }' });
  const { residual, gamma, beta, epsilon } = values;
  for (const [name, array, length] of [['out', out, rows * width], ['values.residual', residual, rows * width], ['values.gamma', gamma, width], ['values.beta', beta, width]] as const) {
    checkFlatArray(array, 'Float32Array', length, caller, name);
    if (array.length !== length) throw new InvalidArgumentError({ caller, argument: name, expected: `a Float32Array of ${length} elements`, received: `${array.length}` });
  }
  if (typeof epsilon !== 'number' || !(epsilon >= 0) || !Number.isFinite(epsilon)) throw new InvalidArgumentError({ caller: 'residualLayerNormF32', argument: 'epsilon', expected: 'a finite number ≥ 0', received: describeValue(epsilon) });
  for (let i = 0; i < rows * width; i++) out[i] = f((out[i] as number) + (residual[i] as number));
  return layerNormRowsF32(out, gamma, beta, rows, width, epsilon);
}
