import type { Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkTensor } from './check-tensor.js';

/**
 * Throws {@link InvalidArgumentError} if a float tensor holds NaN or ±Infinity, naming how many
 * and where the first is. attnkit blocks do not scan float inputs on every call (that is a data
 * read per call); NaN in, NaN out, as in PyTorch. Call this where inputs come from outside.
 *
 * @example
 * await assertFinite(embeddings, 'myPipeline', 'embeddings');
 */
export async function assertFinite(x: Tensor, caller: string, argument: string): Promise<void> {
  checkTensor(x, { caller, argument, dtype: 'float32' });
  const values = await x.data();
  let count = 0;
  let first = -1;
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i] as number)) {
      count += 1;
      if (first < 0) first = i;
    }
  }
  if (count > 0) {
    throw new InvalidArgumentError({ caller, argument, expected: 'finite values only', received: `${count} NaN or infinite value(s), the first (${values[first]}) at flat index ${first}` });
  }
}
