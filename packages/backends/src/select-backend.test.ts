import { registerBackend, removeBackend } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { BackendInitError } from './errors/backend-init-error.js';
import { selectBackend } from './select-backend.js';

describe('selectBackend', () => {
  it('turns a backend whose factory fails into BackendInitError', async () => {
    registerBackend('broken-for-test', () => { throw new Error('no device'); });
    try {
      const error = await selectBackend('broken-for-test').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackendInitError);
      expect((error as Error).message).toBe(
        "backend 'broken-for-test' failed to initialise: tf.setBackend() returned false; tfjs logged the underlying error above.",
      );
    } finally {
      removeBackend('broken-for-test');
    }
  });
});
