import { reshape, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, checkTensor, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { linear } from '@attnkit/nn';
import { WeightedModule, weightVariable } from '@attnkit/scorers';

/** Configuration of {@link HeadProjection}. */
export interface HeadProjectionConfig {
  /** E, the width of the input. */
  readonly inputDim: number;
  readonly numHeads: number;
  /** D, the width of each head. */
  readonly headDim: number;
  /** Learn a bias (default true). */
  readonly bias?: boolean;
  readonly seed?: number;
  /** Initial `linear.weight [H·D, E]` and `linear.bias [H·D]` (PyTorch `nn.Linear` layout). */
  readonly weights?: Readonly<Record<string, Tensor>>;
}

/**
 * labml's `PrepareForMultiHeadAttention`: one dense layer `E → H·D`, then a view `[..., H, D]`, for
 * any leading shape (batch-first `[B, T, E]` or seq-first `[T, B, E]`). Trainable.
 *
 * `x: [..., E]` → `[..., H, D]`.
 *
 * @example
 * new HeadProjection({ inputDim: 12, numHeads: 3, headDim: 4, seed: 1 }).call(x); // [2, 5, 12] -> [2, 5, 3, 4]
 */
export class HeadProjection extends WeightedModule {
  readonly name = 'HeadProjection';
  readonly config: HeadProjectionConfig;

  constructor(config: HeadProjectionConfig) {
    const caller = 'HeadProjection';
    checkObject(config, { caller, argument: 'config', expected: 'a HeadProjectionConfig object ({ inputDim, numHeads, headDim, ... })' });
    const inputDim = checkInteger(config.inputDim, { caller, argument: 'inputDim', min: 1 });
    const numHeads = checkInteger(config.numHeads, { caller, argument: 'numHeads', min: 1 });
    const headDim = checkInteger(config.headDim, { caller, argument: 'headDim', min: 1 });
    const given = config.weights ?? {};
    const weights = new Map<string, Variable>([
      ['linear.weight', weightVariable({ caller, name: 'linear.weight', shape: [numHeads * headDim, inputDim], value: given['linear.weight'], seed: config.seed })],
    ]);
    if (config.bias !== false) weights.set('linear.bias', weightVariable({ caller, name: 'linear.bias', shape: [numHeads * headDim], value: given['linear.bias'], zeros: true }));
    super(weights);
    this.config = config;
  }

  call(x: Tensor): Tensor {
    const caller = 'HeadProjection.call';
    const weight = this.weight('linear.weight', caller) as Tensor;
    const bias = this.weight('linear.bias', caller);
    checkTensor(x, { caller, argument: 'x', dtype: 'float32', shape: '[..., E]' });
    if (x.rank < 1 || x.shape[x.rank - 1] !== this.config.inputDim) {
      throw new InvalidArgumentError({ caller, argument: 'x', expected: `a last dim of inputDim = ${this.config.inputDim}`, received: formatShape(x.shape) });
    }
    return tidy(() => reshape(linear(x, weight, bias), [...x.shape.slice(0, -1), this.config.numHeads, this.config.headDim])); // [..., E] -> [..., H·D] -> [..., H, D]
  }
}
