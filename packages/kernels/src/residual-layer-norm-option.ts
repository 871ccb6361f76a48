import type { Tensor } from '@tensorflow/tfjs-core';
import { checkObject, checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import type { ResidualLayerNormValues } from './residual-layer-norm-f32.js';

/**
 * The `residualLayerNorm` option of the products (`int8MatMul`, `f32MatMul`): after the product,
 * per output row, `LayerNorm(row + residual row) · gamma + beta` (BERT's `LN(dense(x) + x)`).
 * `residual [..., M]` (the output's shape), `gamma`, `beta` `[M]` float32, `epsilon` finite ≥ 0.
 */
export interface ResidualLayerNormOption {
  readonly residual: Tensor;
  readonly gamma: Tensor;
  readonly beta: Tensor;
  readonly epsilon: number;
}

/**
 * Checks a {@link ResidualLayerNormOption} against the product's output shape `[..., M]`, or
 * throws `InvalidArgumentError` naming the field that is off.
 *
 * @example
 * checkResidualLayerNorm({ residual, gamma, beta, epsilon: 1e-12 }, [8, 128, 384], 'f32MatMul');
 */
export function checkResidualLayerNorm(option: ResidualLayerNormOption, outShape: readonly number[], caller: string): void {
  if (!Array.isArray(outShape) || outShape.length === 0 || !outShape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new InvalidArgumentError({ caller: 'checkResidualLayerNorm', argument: 'outShape', expected: 'the product\'s output shape [..., M] (a non-empty list of integers ≥ 0)', received: describeValue(outShape) });
  }
  checkObject(option, { caller, argument: 'residualLayerNorm', expected: 'an object { residual, gamma, beta, epsilon }' });
  checkOptionKeys(option, ['residual', 'gamma', 'beta', 'epsilon'], caller);
  checkTensor(option.residual, { caller, argument: 'residualLayerNorm.residual', dtype: 'float32', shape: '[..., M]' });
  if (option.residual.shape.length !== outShape.length || option.residual.shape.some((d, i) => d !== outShape[i])) {
    throw new InvalidArgumentError({ caller, argument: 'residualLayerNorm.residual', expected: `a float32 tensor of the output's shape ${formatShape(outShape)}`, received: formatShape(option.residual.shape) });
  }
  const width = outShape[outShape.length - 1] as number;
  for (const name of ['gamma', 'beta'] as const) {
    checkTensor(option[name], { caller, argument: `residualLayerNorm.${name}`, dtype: 'float32', rank: 1, shape: '[M]' });
    if (option[name].shape[0] !== width) throw new InvalidArgumentError({ caller, argument: `residualLayerNorm.${name}`, expected: `a float32 tensor [M] with M = ${width}`, received: formatShape(option[name].shape) });
  }
  if (typeof option.epsilon !== 'number' || !Number.isFinite(option.epsilon) || option.epsilon < 0) {
    throw new InvalidArgumentError({ caller, argument: 'residualLayerNorm.epsilon', expected: 'a finite number ≥ 0 (LayerNorm\'s eps)', received: describeValue(option.epsilon) });
  }
}

/**
 * The option's values for a kernel, `read` giving each tensor's values (the residual read last: on
 * tfjs-wasm a view, copied by the kernel before anything allocates); undefined without the option.
 *
 * @example
 * residualLayerNormValues(options.residualLayerNorm, (t) => backendValues(t, Float32Array));
 */
export function residualLayerNormValues(option: ResidualLayerNormOption | undefined, read: (t: Tensor) => Float32Array): ResidualLayerNormValues | undefined {
  if (option === undefined) return undefined;
  return { gamma: read(option.gamma), beta: read(option.beta), epsilon: option.epsilon, residual: read(option.residual) };
}
