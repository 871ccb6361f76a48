import { AttnkitError } from '@attnkit/errors';

/**
 * A WordNet dict folder could not be read: a missing folder or data file (`line` undefined), or a
 * data line that does not follow the `wndb(5WN)` format (`line`: its 1-based number). The message
 * names the path, the line, what was expected and what was found.
 *
 * @example
 * // WordnetReadError: readWordnet: /data/dict/data.noun line 31: 'w_cnt' must be two hex digits
 * //   (the number of words); received 'zz'.
 */
export class WordnetReadError extends AttnkitError {
  /** The folder or data file that failed. */
  readonly path: string;
  /** The 1-based line of a malformed data line; undefined when the file itself failed. */
  readonly line: number | undefined;

  constructor(path: string, line: number | undefined, message: string, options?: { cause?: unknown }) {
    super('ATTNKIT_WORDNET_READ', message, options);
    this.path = path;
    this.line = line;
  }
}
