import { AttnkitError } from './attnkit-error.js';
import { messageText as asText } from './message-text.js';

/** The structured parts of an {@link InvalidArgumentError} message. */
export interface InvalidArgumentDetails {
  /** The public function or layer that was called, e.g. `'paddingMask'`. */
  readonly caller: string;
  /** The argument (or option) that was wrong, e.g. `'lengths'`. */
  readonly argument: string;
  /** What would have been accepted, e.g. `'a rank-1 int32 tensor [B]'`. */
  readonly expected: string;
  /** What was actually passed, e.g. `'rank 2 [2, 3]'`. */
  readonly received: string;
  /** How to fix it, when there is a usual fix. */
  readonly hint?: string;
}

/**
 * A public function received an argument it cannot use. The message says what was expected, what
 * was received and, where there is one, how to fix it:
 * `paddingMask: 'lengths' must be a rank-1 tensor [B]; received rank 2 [2, 3].`
 *
 * @example
 * throw new InvalidArgumentError({ caller: 'paddingMask', argument: 'keyLength',
 *   expected: 'a positive integer', received: '-1' });
 */
export class InvalidArgumentError extends AttnkitError {
  readonly caller: string;
  readonly argument: string;
  readonly expected: string;
  readonly received: string;
  readonly hint: string | undefined;

  constructor(details: InvalidArgumentDetails) {
    // every part is made text first: a caller that passed a Symbol or an object as a name must still get this error
    const given: Partial<InvalidArgumentDetails> = typeof details === 'object' && details !== null ? details : {};
    const caller = asText(given.caller);
    const argument = asText(given.argument);
    const expected = asText(given.expected);
    const received = asText(given.received);
    const hint = given.hint === undefined ? undefined : asText(given.hint);
    super('ATTNKIT_INVALID_ARGUMENT', `${caller}: '${argument}' must be ${expected}; received ${received}.${hint === undefined ? '' : ` ${hint}`}`);
    this.caller = caller;
    this.argument = argument;
    this.expected = expected;
    this.received = received;
    this.hint = hint;
  }
}
