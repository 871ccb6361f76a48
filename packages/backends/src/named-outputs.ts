import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';

/** What a compared function may return: one tensor, a list, or a record of named tensors. */
export type TensorOutputs = Tensor | readonly Tensor[] | Readonly<Record<string, Tensor>>;

/**
 * Flattens {@link TensorOutputs} to `[name, tensor]` pairs: `'output'` for a single tensor, the
 * index for a list, the key for a record.
 *
 * @example
 * namedOutputs({ output: y, attentionWeights: w }); // [['output', y], ['attentionWeights', w]]
 */
export function namedOutputs(outputs: TensorOutputs): Array<[string, Tensor]> {
  if (typeof outputs !== 'object' || outputs === null) throw new InvalidArgumentError({ caller: 'namedOutputs', argument: 'outputs', expected: 'a tensor, a list of tensors or an object of named tensors', received: describeValue(outputs) });
  if (Array.isArray(outputs)) return outputs.map((t, i) => [String(i), t as Tensor]);
  if (isTensor(outputs)) return [['output', outputs]];
  return Object.entries(outputs as Record<string, Tensor>);
}

function isTensor(value: unknown): value is Tensor {
  return typeof value === 'object' && value !== null && 'dataId' in value && 'shape' in value;
}
