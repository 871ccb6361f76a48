import { div, maximum, sqrt, square, sum, tidy, type Tensor2D } from '@tensorflow/tfjs-core';

/**
 * Rows divided by `max(‖row‖, eps)` — `torch.nn.functional.normalize(x, dim=1, eps=eps)` — with a
 * gradient that stays finite for a zero row: the norm is taken as `sqrt(max(Σ x², eps²))`, so a row
 * shorter than `eps` is divided by the constant `eps` (PyTorch's clamp does the same), where
 * `tf.norm` would give `0 · ∞ = NaN`. Internal to the losses; inputs are checked by the caller.
 *
 * `x: [B, E]` → `[B, E]`.
 *
 * @example
 * unitRows(anchors, 1e-12); // cos_sim's normalisation
 */
export function unitRows(x: Tensor2D, eps: number): Tensor2D {
  return tidy(() => div(x, sqrt(maximum(sum(square(x), 1, true), eps * eps)))); // [B, E] / [B, 1]
}
