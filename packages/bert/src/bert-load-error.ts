import { AttnkitError } from '@attnkit/errors';

/**
 * A model folder (or URL, or set of files) that cannot be loaded: a missing or malformed file,
 * or weights that do not match `config.json`. The message names the file and the problem.
 *
 * @example
 * await loadBert('./no-such-folder'); // BertLoadError: loadBert: config.json is missing in ./no-such-folder ...
 */
export class BertLoadError extends AttnkitError {
  readonly file: string;

  constructor(file: string, message: string, cause?: unknown) {
    super('ATTNKIT_BERT_LOAD', `loadBert: ${message}`, { cause });
    this.file = file;
  }
}
