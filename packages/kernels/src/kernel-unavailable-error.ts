import { AttnkitError } from '@attnkit/errors';

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
    super('ATTNKIT_KERNEL_UNAVAILABLE', `${details.caller}: the '${details.kernel}' kernel does not run in this engine (its WebAssembly does not validate); the ones that do: ${details.supported.join(', ')}. ${details.hint}`);
    this.caller = details.caller;
    this.kernel = details.kernel;
    this.supported = details.supported;
  }
}
