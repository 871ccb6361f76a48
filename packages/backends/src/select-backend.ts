import { setBackend } from '@tensorflow/tfjs-core';
import { BackendInitError } from './errors/backend-init-error.js';

/**
 * `tf.setBackend(name)` with its two failure modes (a throw, or `false` after tfjs logged the
 * cause) turned into {@link BackendInitError}.
 *
 * @example
 * await selectBackend('webgl');
 */
export async function selectBackend(name: string): Promise<void> {
  let selected: boolean;
  try {
    selected = await setBackend(name);
  } catch (error) {
    throw new BackendInitError(name, error instanceof Error ? error.message : String(error), error);
  }
  if (!selected) throw new BackendInitError(name, 'tf.setBackend() returned false; tfjs logged the underlying error above');
}
