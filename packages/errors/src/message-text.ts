import { describeValue } from './validate/describe-value.js';

/**
 * A value as a part of an error message: a string as it is, anything else described
 * ({@link describeValue}: `'null'`, `'float32 tensor of rank 2 [2, 3]'`, a disposed tensor too). It
 * never throws, so an error class that builds its message with it reports whatever it was given.
 *
 * @example
 * messageText('useBackend'); // 'useBackend'
 * messageText(null);         // 'null'
 * messageText(Symbol('c'));  // 'symbol c'
 */
export function messageText(value: unknown): string {
  return typeof value === 'string' ? value : describeValue(value);
}

/**
 * A list of message parts, each made text by {@link messageText} (holes read as `undefined`); a
 * value that is no list gives `[]`.
 *
 * @example
 * messageTexts(['cpu', 1]); // ['cpu', 'number 1']
 * messageTexts(null);       // []
 */
export function messageTexts(value: unknown): string[] {
  return Array.isArray(value) ? Array.from(value as unknown[], messageText) : [];
}
