import { checkBoolean, checkInteger, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';

/** The options a model class's constructor takes: a seed for its random initialisation, and (models with a head) `newHead`. */
export interface BuildOptions {
  readonly seed?: number | undefined;
  readonly newHead?: boolean | undefined;
}

/**
 * Checks the constructor arguments a model class shares — `checkpoint` absent or a state dict (a
 * `Map` or an object of values by checkpoint key; its keys and shapes are `loadStateDict`'s to
 * check), `options` with only the keys `allowed`, an integer `seed`, a boolean `newHead` — before
 * anything is allocated.
 *
 * @example
 * checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'BertForSequenceClassification');
 */
export function checkBuildOptions(checkpoint: unknown, options: BuildOptions, allowed: readonly (keyof BuildOptions)[], caller: string): void {
  if (checkpoint !== undefined && (checkpoint === null || typeof checkpoint !== 'object')) {
    throw new InvalidArgumentError({ caller, argument: 'checkpoint', expected: 'a state dict (a Map or an object of values by checkpoint key), or undefined for a random initialisation', received: describeValue(checkpoint) });
  }
  checkOptionKeys(options, allowed, caller);
  if (options.seed !== undefined) checkInteger(options.seed, { caller, argument: 'seed' });
  checkBoolean(options.newHead, { caller, argument: 'newHead', fallback: false });
}
