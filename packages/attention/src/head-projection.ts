import { reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { Linear, Module, checkLayerConfig, type StateDictSource } from '@attnkit/nn';

/** Configuration of {@link HeadProjection}. */
export interface HeadProjectionConfig {
  /** E, the width of the input. */
  readonly inputDim: number;
  readonly numHeads: number;
  /** D, the width of each head. */
  readonly headDim: number;
  /** Learn a bias (default true). */
  readonly bias?: boolean;
  /** Seed of the initialisation (PyTorch's `nn.Linear`) when no checkpoint is given. */
  readonly seed?: number;
}

/**
 * labml's `PrepareForMultiHeadAttention`: one dense layer `E → H·D`, then a view `[..., H, D]`, for
 * any leading shape (batch-first `[B, T, E]` or seq-first `[T, B, E]`). Trainable; parameters
 * `linear.weight [H·D, E]` and `linear.bias [H·D]` (with `bias`), as labml's module. A `checkpoint`
 * by those keys is loaded strictly (`Module.buildFrom`); without one, the weights are initialised from `seed`.
 *
 * `x: [..., E]` → `[..., H, D]`.
 *
 * @example
 * new HeadProjection({ inputDim: 12, numHeads: 3, headDim: 4, seed: 1 }).forward(x); // [2, 5, 12] -> [2, 5, 3, 4]
 */
export class HeadProjection extends Module {
  readonly config: HeadProjectionConfig;
  readonly linear: Linear;

  constructor(config: HeadProjectionConfig, checkpoint?: StateDictSource) {
    super();
    const { inputDim, numHeads, headDim, bias } = checkLayerConfig(config, 'HeadProjection', { widths: ['inputDim', 'numHeads', 'headDim'], flags: { bias: true }, others: ['seed'] });
    this.config = config;
    this.linear = this.buildFrom(checkpoint, () => this.registerModule('linear', new Linear(inputDim, numHeads * headDim, { bias, ...(config.seed === undefined ? {} : { seed: config.seed }) })));
  }

  /** `x [..., E]` → `[..., H, D]`. */
  forward(x: Tensor): Tensor {
    const caller = 'HeadProjection.forward';
    this.assertLive(caller);
    checkTensor(x, { caller, argument: 'x', dtype: 'float32', shape: '[..., E]' });
    if (x.rank < 1 || x.shape[x.rank - 1] !== this.config.inputDim) {
      throw new InvalidArgumentError({ caller, argument: 'x', expected: `a last dim of inputDim = ${this.config.inputDim}`, received: formatShape(x.shape) });
    }
    return tidy(() => reshape(this.linear.forward(x), [...x.shape.slice(0, -1), this.config.numHeads, this.config.headDim])); // [..., E] -> [..., H·D] -> [..., H, D]
  }
}
