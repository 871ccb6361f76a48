import type { Tensor, Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkBoolean, checkInteger, checkOptionKeys, describeValue } from '@attnkit/errors';
import { Module } from '../module/module.js';
import { layerNorm } from '../ops/layer-norm.js';
import { checkWidth } from './check-width.js';
import { initialValues } from './init.js';

/** Options of {@link LayerNorm}. */
export interface LayerNormOptions {
  /** Added to the variance inside the square root (default 1e-5, as PyTorch; BERT uses 1e-12). */
  readonly eps?: number;
  /** Learned `weight` and `bias` (default true). */
  readonly elementwiseAffine?: boolean;
  /**
   * A learned `bias` beside the `weight` (default true); false is PyTorch's `nn.LayerNorm(E, bias=False)`
   * (ModernBERT's `norm_bias: false`): only `weight`, no `bias` key. Ignored without `elementwiseAffine`.
   */
  readonly bias?: boolean;
}

/**
 * `nn.LayerNorm(E)`: normalises the last axis (biased variance), then scales by `weight [E]`
 * (ones) and shifts by `bias [E]` (zeros; none with `bias: false`, as `nn.LayerNorm(E, bias=False)`).
 * One fused kernel on wasm (with both weight and bias).
 *
 * `x [..., E]` → `[..., E]`.
 *
 * @example
 * const norm = new LayerNorm(384, { eps: 1e-12 });
 * const y = norm.forward(x); // [B, T, 384]
 * const noBias = new LayerNorm(768, { bias: false }); // parameters: weight only
 */
export class LayerNorm extends Module {
  readonly normalizedShape: number;
  readonly eps: number;
  readonly weight: Variable | undefined;
  readonly bias: Variable | undefined;

  constructor(normalizedShape: number, options: LayerNormOptions = {}) {
    super();
    this.normalizedShape = checkInteger(normalizedShape, { caller: 'LayerNorm', argument: 'normalizedShape', min: 1 });
    const { eps = 1e-5, elementwiseAffine, bias } = checkOptionKeys(options, ['eps', 'elementwiseAffine', 'bias'], 'LayerNorm');
    if (typeof eps !== 'number' || !(eps > 0) || !Number.isFinite(eps)) {
      throw new InvalidArgumentError({ caller: 'LayerNorm', argument: 'eps', expected: 'a finite number > 0', received: describeValue(eps) });
    }
    this.eps = eps;
    const affine = checkBoolean(elementwiseAffine, { caller: 'LayerNorm', argument: 'elementwiseAffine', fallback: true });
    const withBias = checkBoolean(bias, { caller: 'LayerNorm', argument: 'bias', fallback: true });
    this.weight = affine ? this.registerParameter('weight', initialValues([normalizedShape], { constant: 1 })) : undefined;
    this.bias = affine && withBias ? this.registerParameter('bias', initialValues([normalizedShape], { constant: 0 })) : undefined;
  }

  /** `x [..., E]` → `[..., E]`. */
  forward(x: Tensor): Tensor {
    const caller = 'LayerNorm.forward';
    this.assertLive(caller);
    return layerNorm(checkWidth(x, caller, 'x', this.normalizedShape, 'normalizedShape'), this.weight, this.bias, this.eps);
  }
}
