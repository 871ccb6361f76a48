import type { Tensor, Variable } from '@tensorflow/tfjs-core';
import { UseAfterDisposeError } from '@attnkit/backends';

/**
 * Base of every attnkit module with weights (scorers, projections, attention): named variables
 * (checkpoint-style names), `variables` for
 * optimisers, and `dispose()` that frees them once (later use throws {@link UseAfterDisposeError}).
 */
export abstract class WeightedModule {
  abstract readonly name: string;
  #weights: Map<string, Variable> | undefined;

  protected constructor(weights: Map<string, Variable>) {
    this.#weights = weights;
  }

  /** The trainable weights, in checkpoint-name order. */
  get variables(): readonly Variable[] {
    return [...this.#live(`${this.name}.variables`).values()];
  }

  /** The weights by checkpoint name (`'W_q.weight'`, ...). */
  get namedWeights(): ReadonlyMap<string, Variable> {
    return this.#live(`${this.name}.namedWeights`);
  }

  /** Frees every weight. Calling it twice, or the scorer afterwards, throws {@link UseAfterDisposeError}. */
  dispose(): void {
    const weights = this.#live(`${this.name}.dispose`);
    for (const weight of weights.values()) weight.dispose();
    this.#weights = undefined;
  }

  /** The weight `name`, or {@link UseAfterDisposeError} after dispose. */
  protected weight(name: string, caller: string): Tensor | undefined {
    return this.#live(caller).get(name);
  }

  #live(caller: string): Map<string, Variable> {
    if (this.#weights === undefined) throw new UseAfterDisposeError(caller);
    return this.#weights;
  }
}
