import { AttnkitError, describeValue } from '@attnkit/errors';

/**
 * A checkpoint that cannot be written or resumed from: the target is a file, the folder has no
 * `trainer_state.json`, or a file of it is malformed or does not fit the model. The message names
 * the caller, the folder and the problem.
 *
 * @example
 * await trainSentenceEncoder(model, pairs, { loss: 'multiple-negatives-ranking', resume: './not-a-checkpoint' });
 * // CheckpointError: trainSentenceEncoder: ./not-a-checkpoint has no trainer_state.json ...
 */
export class CheckpointError extends AttnkitError {
  /** The folder (or file) concerned. */
  readonly folder: string;

  constructor(caller: string, folder: string, message: string, cause?: unknown) {
    super('ATTNKIT_CHECKPOINT', `${text(caller)}: ${text(message)}`, { cause }); // reporting never throws: any values give an error
    this.folder = folder;
  }
}

/** A message part: a string as it is, anything else described (a disposed tensor never throws here). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : describeValue(value);
}
