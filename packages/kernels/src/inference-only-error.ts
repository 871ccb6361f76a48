import { AttnkitError } from '@attnkit/errors';

/**
 * A function without a gradient was called while tfjs records one (inside `tf.grad`,
 * `tf.variableGrads`, an optimizer's `minimize`): its output would silently get no gradient, so it
 * refuses instead. The message names the function and the differentiable one to use.
 *
 * @example
 * variableGrads(() => sum(fusedAttention(q, k, v))); // InferenceOnlyError: fusedAttention: has no gradient ...
 */
export class InferenceOnlyError extends AttnkitError {
  readonly caller: string;
  readonly hint: string;

  constructor(details: { caller: string; hint: string }) {
    super('ATTNKIT_INFERENCE_ONLY', `${details.caller}: has no gradient, and was called while tfjs records gradients (inside grad, variableGrads or an optimizer's minimize). ${details.hint}`);
    this.caller = details.caller;
    this.hint = details.hint;
  }
}
