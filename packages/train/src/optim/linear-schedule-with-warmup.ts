import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys } from '@attnkit/errors';

/** Options of {@link linearScheduleWithWarmup}. */
export interface LinearScheduleOptions {
  /** Steps over which the multiplier rises linearly from 0 to 1; an integer from 0 to `totalSteps`. */
  readonly warmupSteps: number;
  /** The step at which the multiplier reaches 0 (and stays); an integer ≥ 0. */
  readonly totalSteps: number;
}

/**
 * transformers' `get_linear_schedule_with_warmup`: the learning-rate multiplier at `step` — rising
 * linearly from 0 to 1 over `warmupSteps`, then falling linearly to 0 at `totalSteps`, and 0 after.
 * As with PyTorch's `LambdaLR`, the `k`-th optimiser step (counting from 0) uses `lr · multiplier(k)`.
 *
 * `step` (an integer ≥ 0) → multiplier in `[0, 1]`.
 *
 * @example
 * const schedule = linearScheduleWithWarmup({ warmupSteps: 100, totalSteps: 1000 });
 * optimizer.learningRate = 2e-5 * schedule(optimizer.iterations); // before each step
 */
export function linearScheduleWithWarmup(options: LinearScheduleOptions): (step: number) => number {
  const caller = 'linearScheduleWithWarmup';
  checkObject(options, { caller, argument: 'options', expected: 'an object { warmupSteps, totalSteps }' });
  checkOptionKeys(options, ['warmupSteps', 'totalSteps'], caller);
  const totalSteps = checkInteger(options.totalSteps, { caller, argument: 'totalSteps', min: 0 });
  const warmupSteps = checkInteger(options.warmupSteps, { caller, argument: 'warmupSteps', min: 0 });
  if (warmupSteps > totalSteps) {
    throw new InvalidArgumentError({ caller, argument: 'warmupSteps', expected: `an integer from 0 to totalSteps = ${totalSteps}`, received: `${warmupSteps}` });
  }
  return (step: number): number => {
    checkInteger(step, { caller: `${caller}(...)`, argument: 'step', min: 0 });
    if (step < warmupSteps) return step / Math.max(1, warmupSteps);
    return Math.max(0, (totalSteps - step) / Math.max(1, totalSteps - warmupSteps));
  };
}
