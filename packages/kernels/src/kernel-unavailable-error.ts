import { AttnkitError, messageText, messageTexts } from '@attnkit/errors';

/**
 * An int8 kernel was requested by name that this JavaScript engine cannot run (its WebAssembly
 * instructions do not validate here). The message names the kernels that do run.
 *
 * @example
 * int8MatMul(x, weight, undefined, { kernel: 'relaxed-simd' }); // in Node 20 without the flag:
 * // KernelUnavailableError: int8MatMul: the 'relaxed-simd' kernel does not run in this engine ...
 */
export class KernelUnavailableError extends AttnkitError {
  readonly caller: string;
  readonly kernel: string;
  readonly supported: readonly string[];

  constructor(details: { caller: string; kernel: string; supported: readonly string[]; hint: string }) {
    // built from whatever it is given (every part made text), so reporting never throws
    const given: Partial<typeof details> = typeof details === 'object' && details !== null ? details : {};
    const [caller, kernel, supported] = [messageText(given.caller), messageText(given.kernel), messageTexts(given.supported)];
    super('ATTNKIT_KERNEL_UNAVAILABLE', `${caller}: the '${kernel}' kernel does not run in this engine (its WebAssembly does not validate); the ones that do: ${supported.length > 0 ? supported.join(', ') : 'none'}. ${given.hint === undefined ? '' : messageText(given.hint)}`.trimEnd());
    this.caller = caller;
    this.kernel = kernel;
    this.supported = supported;
  }
}
