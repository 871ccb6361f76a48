import { add, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { Module } from '../module/module.js';
import { rmsNorm } from '../ops/rms-norm.js';
import { checkWidth } from './check-width.js';
import { initialValues } from './init.js';
import { checkRMSNormArguments, type RMSNormOptions } from './check-rms-norm-arguments.js';

/**
 * Gemma's RMSNorm (`GemmaRMSNorm`): `x / sqrt(mean(x²) + eps) * (1 + weight)` over the last axis,
 * `weight [E]` starting at zeros — the checkpoints store the offset from one. Its one parameter is
 * `weight`. Llama's form (`weight` itself as the scale) is `RMSNorm`.
 *
 * `x [..., E]` → `[..., E]`.
 *
 * @example
 * const norm = new GemmaRMSNorm(2048, { eps: 1e-6 });
 * norm.forward(x); // [B, T, 2048]
 */
export class GemmaRMSNorm extends Module {
  readonly normalizedShape: number;
  readonly eps: number;
  readonly weight: Variable;

  constructor(normalizedShape: number, options: RMSNormOptions = {}) {
    super();
    [this.normalizedShape, this.eps] = checkRMSNormArguments(normalizedShape, options, 'GemmaRMSNorm');
    this.weight = this.registerParameter('weight', initialValues([this.normalizedShape], { constant: 0 }, undefined, 'GemmaRMSNorm'));
  }

  /** `x [..., E]` → `[..., E]`. */
  forward(x: Tensor): Tensor {
    const caller = 'GemmaRMSNorm.forward';
    this.assertLive(caller);
    const input = checkWidth(x, caller, 'x', this.normalizedShape, 'normalizedShape');
    return tidy(() => rmsNorm(input, add(1, this.weight), this.eps)); // the scale is 1 + weight, rounded to float32 as in transformers
  }
}
