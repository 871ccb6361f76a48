import { AttnkitError, messageText, messageTexts } from '@attnkit/errors';

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
    const [name, names] = [messageText(requested), messageTexts(known)];
    super(
      'ATTNKIT_UNKNOWN_BACKEND',
      `unknown backend '${name}'; attnkit knows ${names.length > 0 ? names.join(', ') : 'none'}.`,
    );
    this.requested = name;
    this.known = names;
  }
}
