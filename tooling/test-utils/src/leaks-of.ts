import { memory } from '@tensorflow/tfjs-core';

/**
 * Runs `fn` (which must dispose what it keeps) and returns how many tensors and bytes it left
 * behind. Tests assert both are 0.
 *
 * @example
 * expect(await leaksOf(() => paddingMask(lengths, 5).dispose())).toEqual({ tensors: 0, bytes: 0 });
 */
export async function leaksOf(fn: () => unknown): Promise<{ tensors: number; bytes: number }> {
  const before = memory();
  await fn();
  const after = memory();
  return { tensors: after.numTensors - before.numTensors, bytes: after.numBytes - before.numBytes };
}
