import { AttnkitError, messageText, messageTexts } from '@attnkit/errors';

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
    const given: Partial<typeof details> = typeof details === 'object' && details !== null ? details : {};
    const [requested, environment, reason, available] = [messageText(given.requested), messageText(given.environment), messageText(given.reason), messageTexts(given.available)];
    super(
      'ATTNKIT_BACKEND_UNAVAILABLE',
      `backend '${requested}' is not available in ${environment}: ${reason}. ` +
        `Available here: ${available.length > 0 ? available.join(', ') : 'none'}.`,
    );
    this.requested = requested;
    this.environment = environment;
    this.reason = reason;
    this.available = available;
  }
}
