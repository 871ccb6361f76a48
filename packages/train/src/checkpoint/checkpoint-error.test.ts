import { describe, expect, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { CheckpointError } from './checkpoint-error.js';

describe('CheckpointError', () => {
  it('names the caller, the folder and the problem', () => {
    const error = new CheckpointError('trainSentenceEncoder', './run', './run has no trainer_state.json.');
    expect(error).toBeInstanceOf(AttnkitError);
    expect([error.message, error.folder, error.code]).toEqual(['trainSentenceEncoder: ./run has no trainer_state.json.', './run', 'ATTNKIT_CHECKPOINT']);
  });

  it('builds an error from whatever it is given, so that reporting never throws', () => {
    const throwing = { toString: () => { throw new Error('Tensor is disposed.'); } }; // as a disposed tensor in a template string
    expect(new CheckpointError(throwing as never, 'x', throwing as never).message).toMatch(/^.+: .+$/);
    expect(new CheckpointError(undefined as never, 'x', null as never).message).toBe('undefined: null');
  });
});
