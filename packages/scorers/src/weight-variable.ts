import { clone, randomUniform, tidy, variable, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkMemoryBudget } from '@attnkit/backends';
import { checkObject, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';

/** How {@link weightVariable} creates one weight. */
export interface WeightSpec {
  readonly caller: string;
  /** The checkpoint-style name, e.g. `'W_q.weight'`. */
  readonly name: string;
  /** Shape in PyTorch layout (`nn.Linear.weight` is `[out, in]`). */
  readonly shape: readonly number[];
  /** Given values (copied), e.g. from a PyTorch state dict; shape-checked. */
  readonly value?: Tensor | undefined;
  /** Seed for the Glorot-uniform initialisation used when no value is given. */
  readonly seed?: number | undefined;
  /** Initialise to zeros instead of Glorot (biases). */
  readonly zeros?: boolean;
}

/**
 * A trainable `tf.Variable`: a copy of the given value (shape-checked against the layer's
 * config) or a seeded Glorot-uniform initialisation.
 *
 * @example
 * const W_q = weightVariable({ caller: 'AdditiveScorer', name: 'W_q.weight', shape: [hidden, queryDim], seed: 1 });
 */
export function weightVariable(spec: WeightSpec): Variable {
  const { caller, name, shape } = checkObject(spec, { caller: 'weightVariable', argument: 'spec', expected: 'a WeightSpec object ({ caller, name, shape, ... })' });
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) throw new InvalidArgumentError({ caller: String(caller), argument: `shape of '${String(name)}'`, expected: 'a list of non-negative integers', received: describeValue(shape) });
  if (spec.value !== undefined) {
    const given = checkTensor(spec.value, { caller, argument: `weights['${name}']`, dtype: 'float32', rank: shape.length, shape: formatShape(shape) });
    if (given.shape.some((size, i) => size !== shape[i])) {
      throw new InvalidArgumentError({
        caller,
        argument: `weights['${name}']`,
        expected: `shape ${formatShape(shape)} (PyTorch layout, from the layer's configuration)`,
        received: formatShape(given.shape),
      });
    }
    return owned(clone(given), `${caller}/${name}/${nextId()}`);
  }
  checkMemoryBudget(String(caller), `the values of the weight '${String(name)}'`, shape as number[], 1, undefined, 'A layer this size does not fit this backend: choose smaller dimensions.'); // before any allocation
  const fanOut = shape[0] ?? 1;
  const fanIn = shape.length > 1 ? (shape[1] as number) : fanOut;
  const limit = spec.zeros === true ? 0 : Math.sqrt(6 / (fanIn + fanOut));
  const initial = tidy(() => randomUniform(shape as number[], -limit, limit, 'float32', spec.seed));
  return owned(initial, `${caller}/${name}/${nextId()}`);
}

/** A variable over `initial`'s data; `initial` itself is disposed (the variable keeps the data). */
function owned(initial: Tensor, name: string): Variable {
  const weight = variable(initial, true, name);
  initial.dispose();
  return weight;
}

let counter = 0;
function nextId(): number {
  counter += 1;
  return counter;
}
