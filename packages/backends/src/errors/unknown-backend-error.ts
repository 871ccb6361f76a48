import { AttnkitError } from '@attnkit/errors';

/**
 * A backend name that attnkit does not know (a typo, or a backend it has no adapter for).
 *
 * @example
 * await useBackend('wsam'); // UnknownBackendError: unknown backend 'wsam'; attnkit knows cpu, wasm, webgl, webgpu.
 */
export class UnknownBackendError extends AttnkitError {
  readonly requested: string;
  readonly known: readonly string[];

  constructor(requested: string, known: readonly string[]) {
    super(
      'ATTNKIT_UNKNOWN_BACKEND',
      `unknown backend '${requested}'; attnkit knows ${known.join(', ')}.`,
    );
    this.requested = requested;
    this.known = known;
  }
}
