import type { Tensor, Variable } from '@tensorflow/tfjs-core';
import { Module } from '@attnkit/nn';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';

/**
 * Base of the flat attnkit modules whose weights are created up front (scorers, head projections,
 * `MultiHeadAttention`): a {@link Module} whose parameters are registered under their checkpoint
 * names (`'W_q.weight'`, `'out_proj.bias'`), so `namedParameters()`, `stateDict()`,
 * `loadStateDict()`, `train()`/`eval()` and `dispose()` work as on any module. `variables` and
 * `namedWeights` give the same parameters as a list and as a map.
 */
export abstract class WeightedModule extends Module {
  abstract readonly name: string;

  override get className(): string {
    return this.name ?? super.className; // `name` is set once the subclass's fields are (after super())
  }

  protected constructor(weights: Map<string, Variable>) {
    super();
    if (!(weights instanceof Map)) throw new InvalidArgumentError({ caller: 'WeightedModule', argument: 'weights', expected: 'a Map of name → Variable', received: describeValue(weights) });
    for (const [name, weight] of weights) this.registerParameter(name, weight);
  }

  /** The trainable weights, in checkpoint-name order (`parameters()`). */
  get variables(): readonly Variable[] {
    this.assertLive(`${this.name}.variables`);
    return this.parameters();
  }

  /** The weights by checkpoint name (`'W_q.weight'`, ...), as `stateDict()`. */
  get namedWeights(): ReadonlyMap<string, Variable> {
    this.assertLive(`${this.name}.namedWeights`);
    return new Map(this.namedParameters());
  }

  /** The weight `name`, or `UseAfterDisposeError` after dispose. */
  protected weight(name: string, caller: string): Tensor | undefined {
    this.assertLive(caller);
    return this.namedWeights.get(name);
  }
}
