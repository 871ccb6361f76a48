import type { Tensor, Variable } from '@tensorflow/tfjs-core';
import { checkBoolean, checkInteger, checkOptionKeys } from '@attnkit/errors';
import { Module } from '../module/module.js';
import { linear } from '../ops/linear.js';
import { checkWidth } from './check-width.js';
import { initialValues } from './init.js';

/** Options of {@link Linear}. */
export interface LinearOptions {
  /** Add a learned bias (default true). */
  readonly bias?: boolean;
  /** Seed of the initialisation (weight: `seed`, bias: `seed + 1`). */
  readonly seed?: number;
}

/**
 * `nn.Linear`: `y = x Wᵀ + b` over the last axis. Parameters `weight [out, in]` and `bias [out]`,
 * initialised as PyTorch does (`U(-1/√in, 1/√in)`).
 *
 * `x [..., in]` → `[..., out]`.
 *
 * @example
 * const proj = new Linear(384, 1536);
 * const y = proj.forward(x); // [B, T, 384] -> [B, T, 1536]
 */
export class Linear extends Module {
  readonly inFeatures: number;
  readonly outFeatures: number;
  readonly weight: Variable;
  readonly bias: Variable | undefined;

  constructor(inFeatures: number, outFeatures: number, options: LinearOptions = {}) {
    super();
    this.inFeatures = checkInteger(inFeatures, { caller: 'Linear', argument: 'inFeatures', min: 1 });
    this.outFeatures = checkInteger(outFeatures, { caller: 'Linear', argument: 'outFeatures', min: 1 });
    const { seed, bias } = checkOptionKeys(options, ['bias', 'seed'], 'Linear');
    const withBias = checkBoolean(bias, { caller: 'Linear', argument: 'bias', fallback: true });
    const bound = 1 / Math.sqrt(this.inFeatures);
    this.weight = this.registerParameter('weight', initialValues([this.outFeatures, this.inFeatures], { uniform: bound }, seed, 'Linear'));
    this.bias = !withBias ? undefined : this.registerParameter('bias', initialValues([this.outFeatures], { uniform: bound }, seed === undefined ? undefined : seed + 1));
  }

  /** `x [..., in]` → `[..., out]`. */
  forward(x: Tensor): Tensor {
    const caller = 'Linear.forward';
    this.assertLive(caller);
    return linear(checkWidth(x, caller, 'x', this.inFeatures, 'inFeatures'), this.weight, this.bias);
  }
}
