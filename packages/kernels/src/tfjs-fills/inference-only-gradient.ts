import type { GradConfig } from '@tensorflow/tfjs-core';
import { InferenceOnlyError } from '../inference-only-error.js';

/**
 * The gradient entry of a fill that only runs outside gradient recording: `kernelRoute` routes its
 * op to the tfjs composite while tfjs records gradients, so this is reached only by a caller that
 * runs the kernel by name inside `grad`; it says so, typed.
 */
export function inferenceOnlyGradient(kernelName: string): Omit<GradConfig, 'kernelName'> {
  return {
    gradFunc: () => {
      throw new InferenceOnlyError({ caller: kernelName, hint: 'Call the op (it takes the differentiable tfjs composite while gradients are recorded), not the kernel by name.' });
    },
  };
}
