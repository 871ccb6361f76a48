import { AttnkitError } from '@attnkit/errors';

/**
 * The failure half of every fuzz property: `error` must be an `AttnkitError` whose message is at
 * most `maxMessage` characters. Anything else is rethrown, so fast-check shrinks and shows it.
 *
 * @example
 * try { validateMask(mask, target); } catch (error) { return isTypedError(error); }
 */
export function isTypedError(error: unknown, maxMessage = 1000): true {
  if (!(error instanceof AttnkitError)) throw error;
  if (error.message.length > maxMessage) throw new Error(`an AttnkitError whose message has ${error.message.length} characters (at most ${maxMessage}): ${error.message.slice(0, 300)}…`);
  return true;
}
