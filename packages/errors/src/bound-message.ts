import { describeValue } from './validate/describe-value.js';

/** The longest message an attnkit error carries, in characters (UTF-16 code units). */
export const MAX_MESSAGE_LENGTH = 2000;

/**
 * Keeps an error message readable whatever was passed: a message longer than
 * {@link MAX_MESSAGE_LENGTH} keeps its start (what was wrong) and its end (the fix), with the
 * number of characters left out between them. Every {@link AttnkitError} applies it.
 *
 * @example
 * boundMessage('x'.repeat(10_000)).length; // ≤ 2000
 */
export function boundMessage(message: string): string {
  const text = typeof message === 'string' ? message : describeValue(message);
  if (text.length <= MAX_MESSAGE_LENGTH) return text;
  const tail = 400;
  const marker = (omitted: number) => ` … [${omitted} characters omitted] … `;
  const head = MAX_MESSAGE_LENGTH - tail - marker(text.length).length;
  let start = text.slice(0, head);
  let end = text.slice(text.length - tail);
  if (/[\uD800-\uDBFF]$/.test(start)) start = start.slice(0, -1); // never split a surrogate pair
  if (/^[\uDC00-\uDFFF]/.test(end)) end = end.slice(1);
  return `${start}${marker(text.length - start.length - end.length)}${end}`;
}
