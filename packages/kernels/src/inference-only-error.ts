import { AttnkitError, messageText } from '@attnkit/errors';

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
    // built from whatever it is given (every part made text), so reporting never throws
    const given: Partial<typeof details> = typeof details === 'object' && details !== null ? details : {};
    const [caller, hint] = [messageText(given.caller), given.hint === undefined ? '' : messageText(given.hint)];
    super('ATTNKIT_INFERENCE_ONLY', `${caller}: has no gradient, and was called while tfjs records gradients (inside grad, variableGrads or an optimizer's minimize). ${hint}`.trimEnd());
    this.caller = caller;
    this.hint = hint;
  }
}
