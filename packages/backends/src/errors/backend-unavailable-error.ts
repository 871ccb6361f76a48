import { AttnkitError } from '@attnkit/errors';

/**
 * The backend exists but this environment cannot run it (webgl in Node, webgpu without an adapter).
 * attnkit never falls back silently; this error lists what *is* available here.
 *
 * @example
 * await useBackend('webgl'); // in Node:
 * // BackendUnavailableError: backend 'webgl' is not available in node: no WebGL context ... Available here: cpu, wasm.
 */
export class BackendUnavailableError extends AttnkitError {
  readonly requested: string;
  readonly environment: string;
  readonly reason: string;
  readonly available: readonly string[];

  constructor(details: {
    requested: string;
    environment: string;
    reason: string;
    available: readonly string[];
  }) {
    super(
      'ATTNKIT_BACKEND_UNAVAILABLE',
      `backend '${details.requested}' is not available in ${details.environment}: ${details.reason}. ` +
        `Available here: ${details.available.length > 0 ? details.available.join(', ') : 'none'}.`,
    );
    this.requested = details.requested;
    this.environment = details.environment;
    this.reason = details.reason;
    this.available = details.available;
  }
}
