import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue, isTensorLike } from '@attnkit/errors';

/** What a compared function may return: one tensor, a list, or a record of named tensors. */
export type TensorOutputs = Tensor | readonly Tensor[] | Readonly<Record<string, Tensor>>;

const EXPECTED = 'a tensor, a list of tensors or an object of named tensors';

/**
 * Flattens {@link TensorOutputs} to `[name, tensor]` pairs: `'output'` for a single tensor, the
 * index for a list, the key for a record. Every output must be a live tensor: a nested record, a
 * number or a disposed tensor is an {@link InvalidArgumentError} naming the output.
 *
 * @example
 * namedOutputs({ output: y, attentionWeights: w }); // [['output', y], ['attentionWeights', w]]
 */
export function namedOutputs(outputs: TensorOutputs): Array<[string, Tensor]> {
  if (typeof outputs !== 'object' || outputs === null) throw new InvalidArgumentError({ caller: 'namedOutputs', argument: 'outputs', expected: EXPECTED, received: describeValue(outputs) });
  const pairs: Array<[string, unknown]> = Array.isArray(outputs) ? outputs.map((t, i) => [String(i), t]) : isTensorLike(outputs) ? [['output', outputs]] : Object.entries(outputs);
  for (const [name, value] of pairs) {
    if (!isTensorLike(value) || value.isDisposed) {
      throw new InvalidArgumentError({
        caller: 'namedOutputs',
        argument: pairs.length === 1 && name === 'output' && value === outputs ? 'outputs' : `outputs.${name}`,
        expected: `a live tensor (outputs are ${EXPECTED}, not nested)`,
        received: describeValue(value),
        ...(isTensorLike(value) ? { hint: 'It was disposed before it was returned.' } : {}),
      });
    }
  }
  return pairs as Array<[string, Tensor]>;
}
