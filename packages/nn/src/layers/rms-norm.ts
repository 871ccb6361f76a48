import type { Tensor, Variable } from '@tensorflow/tfjs-core';
import { Module } from '../module/module.js';
import { rmsNorm } from '../ops/rms-norm.js';
import { checkRMSNormArguments, type RMSNormOptions } from './check-rms-norm-arguments.js';
import { checkWidth } from './check-width.js';
import { initialValues } from './init.js';

/**
 * Hugging Face's `LlamaRMSNorm` (Mistral, Qwen2/3, and the q/k norms of Qwen3):
 * `weight * x / sqrt(mean(x²) + eps)` over the last axis, `weight [E]` starting at ones. Its one
 * parameter is `weight`, as in the checkpoints. Gemma's `1 + weight` variant is `GemmaRMSNorm`.
 *
 * `x [..., E]` → `[..., E]`.
 *
 * @example
 * const norm = new RMSNorm(2048, { eps: 1e-5 }); // input_layernorm
 * norm.forward(x); // [B, T, 2048]
 */
export class RMSNorm extends Module {
  readonly normalizedShape: number;
  readonly eps: number;
  readonly weight: Variable;

  constructor(normalizedShape: number, options: RMSNormOptions = {}) {
    super();
    [this.normalizedShape, this.eps] = checkRMSNormArguments(normalizedShape, options, 'RMSNorm');
    this.weight = this.registerParameter('weight', initialValues([this.normalizedShape], { constant: 1 }, undefined, 'RMSNorm'));
  }

  /** `x [..., E]` → `[..., E]`. */
  forward(x: Tensor): Tensor {
    const caller = 'RMSNorm.forward';
    this.assertLive(caller);
    return rmsNorm(checkWidth(x, caller, 'x', this.normalizedShape, 'normalizedShape'), this.weight, this.eps);
  }
}
