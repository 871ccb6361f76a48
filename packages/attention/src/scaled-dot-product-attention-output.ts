import type { Tensor } from '@tensorflow/tfjs-core';
import { fusedAttention, kernelRoute } from '@attnkit/kernels';
import { validateMask } from '@attnkit/masks';
import { scaledDotProductScorer } from '@attnkit/scorers';
import { checkAttentionBias } from './check-attention-bias.js';
import { checkAttentionInputs } from './check-attention-inputs.js';
import { attendUnfused, type AttentionOptions } from './scaled-dot-product-attention.js';

/**
 * Whether this call can run as `fusedAttention` (`@attnkit/kernels`): when `kernelRoute` sends
 * fused attention to the kernel (the wasm backend with the wasm SIMD kernel, no gradient being
 * recorded — the fused kernel has none) and the call is what the kernel computes: the default
 * scorer, no dropout in play (not `training`).
 */
function fusable(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions, training: boolean): boolean {
  return !training
    && (options.scorer === undefined || options.scorer === scaledDotProductScorer)
    && query.shape[3] === key.shape[3] // else the scorer's own error, from the unfused path
    && kernelRoute('fusedAttention', [query, key, value]).useKernel;
}

/**
 * Scaled dot-product attention when only the output is needed (not the attention weights):
 * `softmax(mask(score(q, k) + bias)) · v`, with the options and the numbers of
 * `scaledDotProductAttention` (within 1e-5). On the wasm backend, outside training and gradient
 * recording, with the default scorer, it runs as one fused wasm SIMD kernel (`fusedAttention`
 * from `@attnkit/kernels`) that never holds the scores `[B, H, T, S]`; everywhere else it is
 * `scaledDotProductAttention(...).output`, gradients included.
 *
 * `query [B, H, T, D]`, `key [B, H, S, D]`, `value [B, H, S, Dv]` → `[B, H, T, Dv]`.
 *
 * @example
 * const context = scaledDotProductAttentionOutput(q, k, v, { mask: padding }); // padding: bool [B, 1, 1, S]
 * scaledDotProductAttentionOutput(q, k, v, { bias, dropout: 0.1, training: true }); // unfused: dropout, gradients
 */
export function scaledDotProductAttentionOutput(query: Tensor, key: Tensor, value: Tensor, options: AttentionOptions = {}): Tensor {
  const caller = 'scaledDotProductAttentionOutput';
  const { batch, heads, queryLength, keyLength, training } = checkAttentionInputs(query, key, value, options, caller);
  if (!fusable(query, key, value, options, training)) {
    const { output, attentionWeights } = attendUnfused(query, key, value, options, caller);
    attentionWeights.dispose();
    return output;
  }
  const target = { batch, heads, queryLength, keyLength };
  const bias = options.bias === undefined ? undefined : checkAttentionBias(options.bias, target, caller); // rank 4
  let mask: Tensor | undefined;
  try {
    mask = options.mask === undefined ? undefined : validateMask(options.mask, { ...target, caller, argument: 'mask' }); // bool [B|1, H|1, T|1, S|1]
    return fusedAttention(query, key, value, { mask, bias }); // [B, H, T, Dv]; scale √(1 / D), as scaledDotProductScorer
  } finally {
    mask?.dispose();
    if (bias !== options.bias) bias?.dispose();
  }
}
