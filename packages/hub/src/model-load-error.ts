import { AttnkitError, messageText as text } from '@attnkit/errors';

/**
 * A model folder (or URL, or set of files) that cannot be loaded: a missing or malformed file,
 * or weights that do not match `config.json`. The message names the loader, the file and the problem.
 * It is built from whatever it is given (a part that is no string described), so reporting never throws.
 *
 * @example
 * await loadEncoder('./no-such-folder'); // ModelLoadError: loadEncoder: config.json is missing in ./no-such-folder ...
 */
export class ModelLoadError extends AttnkitError {
  readonly file: string;

  constructor(file: string, message: string, cause?: unknown, caller = 'loadBert') {
    super('ATTNKIT_MODEL_LOAD', `${text(caller)}: ${text(message)}`, { cause });
    this.file = text(file);
  }
}
