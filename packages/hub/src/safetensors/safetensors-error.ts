import { AttnkitError, messageText } from '@attnkit/errors';

/**
 * A `.safetensors` file that is malformed, lies about its contents, or uses what attnkit does not
 * read. `reason` is stable for programs; the message says what was found and what was expected.
 *
 * @example
 * readSafetensors(bytes); // SafetensorsError: safetensors: tensor 'w' ends at byte 40 but the data section has 32 bytes.
 */
export class SafetensorsError extends AttnkitError {
  readonly reason: 'truncated' | 'header' | 'dtype' | 'shape' | 'offsets';

  constructor(reason: SafetensorsError['reason'], message: string) {
    super('ATTNKIT_SAFETENSORS', `safetensors: ${messageText(message)}`); // built from whatever it is given: reporting never throws
    this.reason = reason;
  }
}
