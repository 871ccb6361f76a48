import { add, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkBoolean, checkInteger, checkOptionKeys } from '@attnkit/errors';
import { checkResidual, checkResidualLayerNorm, kernelRoute } from '@attnkit/kernels';
import { f32MatMulUnchecked } from '@attnkit/kernels/unchecked';
import { Module } from '../module/module.js';
import { gelu } from '../ops/gelu.js';
import { layerNorm } from '../ops/layer-norm.js';
import { linearUnchecked } from '../ops/linear.js';
import { checkWidth } from './check-width.js';
import { checkLinearFusion, type LinearFusion } from './linear-fusion.js';
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

  /**
   * `x [..., in]` → `[..., out]`; with `options`, GELU and then a residual LayerNorm (or a residual
   * added) applied to the product in the same call (`LinearFusion`): on wasm outside gradient recording, inside attnkit's
   * float32 kernel (one pass, the same numbers as the ops); elsewhere with the ops `gelu`, `add`
   * and `layerNorm`.
   *
   * @example
   * dense.forward(x, { activation: 'gelu' });                                             // GELU(x Wᵀ + b)
   * dense.forward(x, { residualLayerNorm: { residual, gamma, beta, epsilon: 1e-12 } });  // LayerNorm(x Wᵀ + b + residual)
   * dense.forward(x, { residual: hidden });                                               // x Wᵀ + b + hidden
   */
  forward(x: Tensor, options: LinearFusion = {}): Tensor {
    const caller = 'Linear.forward';
    this.assertLive(caller);
    const { activation, residualLayerNorm, residual } = checkLinearFusion(options, caller);
    const input = checkWidth(x, caller, 'x', this.inFeatures, 'inFeatures'); // the one check of x; the weight and bias are ours
    if (residualLayerNorm !== undefined) checkResidualLayerNorm(residualLayerNorm, [...input.shape.slice(0, -1), this.outFeatures], caller);
    if (residual !== undefined) {
      checkResidual(residual, [...input.shape.slice(0, -1), this.outFeatures], caller);
      return tidy(() => add(this.forward(input, activation === undefined ? {} : { activation }), residual)); // y + residual: tfjs' add, as int8MatMul's residual
    }
    if (activation === undefined && residualLayerNorm === undefined) return linearUnchecked(input, this.weight, this.bias);
    if (kernelRoute('f32MatMul', [input]).useKernel) return f32MatMulUnchecked(input, this.weight, this.bias, options); // options checked above
    return tidy(() => {
      const y = linearUnchecked(input, this.weight, this.bias);
      const activated = activation === 'gelu' ? gelu(y) : y;
      if (residualLayerNorm === undefined) return activated;
      const { residual, gamma, beta, epsilon } = residualLayerNorm;
      return layerNorm(add(activated, residual), gamma, beta, epsilon);
    });
  }
}
