import { AttnkitError } from './attnkit-error.js';

/**
 * A block was called before any backend finished initialising. attnkit does not let tfjs pick a
 * backend behind your back; await {@link useBackend} first.
 *
 * @example
 * scaledDotProductAttention(q, k, v); // before `await useBackend('wasm')`:
 * // BackendNotReadyError: scaledDotProductAttention: no backend is ready ...
 */
export class BackendNotReadyError extends AttnkitError {
  readonly caller: string;
  readonly pendingBackend: string | undefined;

  constructor(caller: string, pendingBackend: string | undefined) {
    const state =
      pendingBackend === undefined
        ? 'no backend has been selected'
        : `backend '${pendingBackend}' is still initialising`;
    super(
      'ATTNKIT_BACKEND_NOT_READY',
      `${caller}: no backend is ready (${state}). Call \`await useBackend('cpu' | 'wasm' | 'webgl' | 'webgpu')\` ` +
        'from @attnkit/backends and wait for it before calling attnkit blocks.',
    );
    this.caller = caller;
    this.pendingBackend = pendingBackend;
  }
}
