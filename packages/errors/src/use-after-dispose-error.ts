import { AttnkitError } from './attnkit-error.js';
import { messageText } from './message-text.js';

/**
 * A layer or model was called (or disposed again) after `dispose()` freed its weights.
 *
 * @example
 * scorer.dispose(); scorer.score(q, k); // UseAfterDisposeError: AdditiveScorer.score: called after dispose() ...
 */
export class UseAfterDisposeError extends AttnkitError {
  readonly caller: string;

  constructor(caller: string) {
    const name = messageText(caller);
    super('ATTNKIT_USE_AFTER_DISPOSE', `${name}: called after dispose() freed its weights. Create a new instance instead.`);
    this.caller = name;
  }
}
