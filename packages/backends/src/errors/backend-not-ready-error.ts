import { AttnkitError, messageText, messageTexts } from '@attnkit/errors';

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
  /** `'none'`: no backend was ever selected; `'initialising'`: a setBackend/useBackend was not awaited; `'uninitialised'`: the named backend was never initialised. */
  readonly state: 'none' | 'initialising' | 'uninitialised';

  constructor(caller: string, state: 'none' | 'initialising' | 'uninitialised', backend?: string) {
    const what = state === 'none' ? 'no backend has been selected' : 'a backend is still initialising';
    super(
      'ATTNKIT_BACKEND_NOT_READY',
      state === 'uninitialised'
        ? `${messageText(caller)}: backend '${messageText(backend)}' is not initialised. Call \`await useBackend('${messageText(backend)}')\` (or withBackend) from @attnkit/backends once first.`
        : `${messageText(caller)}: no backend is ready (${what}). Call \`await useBackend('cpu' | 'wasm' | 'webgl' | 'webgpu')\` ` +
            'from @attnkit/backends and wait for it before calling attnkit blocks.',
    );
    this.caller = messageText(caller);
    this.state = state === 'none' || state === 'uninitialised' ? state : 'initialising';
  }
}
