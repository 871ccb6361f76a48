import { boundMessage } from './bound-message.js';
import { messageText } from './message-text.js';

/**
 * Base class of every error thrown by an `@attnkit/*` package.
 *
 * Catch it to handle any attnkit failure; switch on `code` (stable, machine-readable) rather than on
 * the message (written for people and free to improve). Messages are bounded
 * ({@link boundMessage}: at most 2 000 characters, start and end kept); structured fields keep the
 * full details. It is built from whatever it is given (a code that is no string is described), so
 * reporting never throws.
 *
 * @example
 * try { await useBackend('webgl'); } catch (e) { if (e instanceof AttnkitError) console.log(e.code); }
 */
export class AttnkitError extends Error {
  /** Stable, machine-readable identifier, e.g. `'ATTNKIT_BACKEND_UNAVAILABLE'`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    const cause = typeof options === 'object' && options !== null ? (options as { cause?: unknown }).cause : undefined;
    super(boundMessage(message), cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = messageText(code);
  }
}
