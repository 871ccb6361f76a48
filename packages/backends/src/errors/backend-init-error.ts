import { AttnkitError, messageText, messageTexts } from '@attnkit/errors';

/**
 * The environment offers the backend, but tfjs failed to initialise it (for example the wasm
 * module aborted while instantiating). The original failure is kept as `cause`.
 *
 * @example
 * try { await useBackend('webgpu'); } catch (e) { if (e instanceof BackendInitError) console.error(e.cause); }
 */
export class BackendInitError extends AttnkitError {
  readonly backend: string;

  constructor(backend: string, detail: string, cause?: unknown) {
    // built from whatever it is given (every part made text), so reporting never throws
    super('ATTNKIT_BACKEND_INIT_FAILED', `backend '${messageText(backend)}' failed to initialise: ${messageText(detail)}.`, {
      cause,
    });
    this.backend = messageText(backend);
  }
}
