import { checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { Tensor } from '@tensorflow/tfjs-core';
import type { F32MatMulOptions } from '@attnkit/kernels';

/**
 * What `Linear.forward` and `Int8Linear.forward` may apply to the product in the same call:
 * `activation: 'gelu'` (exact GELU), then `residualLayerNorm: { residual, gamma, beta, epsilon }`
 * (`LayerNorm(y + residual) · gamma + beta`, per row) or `residual` (`y + residual`, a pre-norm
 * decoder's skip connection; `[..., out]`). Fused into the kernel where one runs, else applied with
 * tfjs ops (the same numbers).
 */
export type LinearFusion = Pick<F32MatMulOptions, 'activation' | 'residualLayerNorm'> & { readonly residual?: Tensor };

const LINEAR_FUSION_KEYS = ['activation', 'residualLayerNorm', 'residual'];

/**
 * Checks a {@link LinearFusion} (an object with only those keys, a known activation) and returns
 * it (`more`: other keys the caller accepts); the residual LayerNorm's tensors are checked against the output by the product.
 *
 * @example
 * const { activation, residualLayerNorm } = checkLinearFusion(options, 'Linear.forward');
 */
export function checkLinearFusion<T extends LinearFusion>(options: T, caller: string, more: readonly string[] = []): T {
  checkObject(options, { caller, argument: 'options', expected: 'an object with an optional activation, residualLayerNorm or residual' });
  const { activation, residual, residualLayerNorm } = checkOptionKeys(options, more.length === 0 ? LINEAR_FUSION_KEYS : [...LINEAR_FUSION_KEYS, ...more], caller);
  if (residual !== undefined && residualLayerNorm !== undefined) throw new InvalidArgumentError({ caller, argument: 'residual', expected: 'absent with residualLayerNorm (which adds its own residual)', received: 'both' });
  if (activation !== undefined && activation !== 'gelu') {
    throw new InvalidArgumentError({ caller, argument: 'activation', expected: "'gelu' (or absent)", received: describeValue(activation) });
  }
  return options;
}
