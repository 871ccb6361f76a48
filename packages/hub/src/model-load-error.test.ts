import { describe, expect, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { ModelLoadError } from './model-load-error.js';

describe('ModelLoadError', () => {
  it('names the loader, the file and the problem, with a stable code', () => {
    const cause = new Error('ENOENT');
    const error = new ModelLoadError('config.json', 'config.json is missing in ./model.', cause, 'loadEncoder');
    expect(error).toBeInstanceOf(AttnkitError);
    expect([error.name, error.code, error.file, error.message, error.cause]).toEqual(['ModelLoadError', 'ATTNKIT_MODEL_LOAD', 'config.json', 'loadEncoder: config.json is missing in ./model.', cause]);
  });
  it('is built from whatever it is given, so reporting never throws', () => {
    const unreadable = { toString: () => { throw new Error('unreadable'); } };
    const error = new ModelLoadError(unreadable as never, null as never, undefined, 7 as never);
    expect([error.file, error.message]).toEqual(['Object', 'number 7: null']);
  });
});
