import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { fusedAttentionReference } from './fused-attention-reference.js';
import { FUSED_ATTENTION_KERNEL_NAMES, type FusedAttentionKernel, type FusedAttentionKernelName } from './fused-attention-problem.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';
import { WasmFusedAttention } from './wasm-fused-attention.js';
import { FUSED_ATTENTION_WASM } from './wasm/fused-attention.wasm.js';

let kernels: { simd: WasmFusedAttention; js: FusedAttentionKernel & { readonly supported: true } } | undefined;

function all() {
  kernels ??= { simd: new WasmFusedAttention(FUSED_ATTENTION_WASM), js: { name: 'js', supported: true, run: fusedAttentionReference } };
  return kernels;
}

/**
 * Which fused attention kernels this JavaScript engine runs (found by validating the wasm module;
 * no code runs), fastest first, and the one `fusedAttention` uses by default.
 *
 * @example
 * fusedAttentionKernels(); // { supported: ['simd', 'js'], preferred: 'simd' } in Node 20 and current browsers
 */
export function fusedAttentionKernels(): { readonly supported: readonly FusedAttentionKernelName[]; readonly preferred: FusedAttentionKernelName } {
  const supported = FUSED_ATTENTION_KERNEL_NAMES.filter((name) => all()[name].supported);
  return { supported, preferred: supported[0] as FusedAttentionKernelName };
}

/**
 * The fused attention kernel called `name` (default: the preferred one); an unknown name is an
 * `InvalidArgumentError`, one this engine cannot run a `KernelUnavailableError`.
 *
 * @example
 * fusedAttentionKernel('js', 'test').run(problem); // the plain JavaScript reference
 */
export function fusedAttentionKernel(name: FusedAttentionKernelName | undefined, caller: string): FusedAttentionKernel {
  if (name === undefined) return all()[fusedAttentionKernels().preferred];
  if (!(FUSED_ATTENTION_KERNEL_NAMES as readonly unknown[]).includes(name)) {
    throw new InvalidArgumentError({ caller, argument: 'kernel', expected: `one of ${FUSED_ATTENTION_KERNEL_NAMES.map((n) => `'${n}'`).join(', ')}`, received: describeValue(name) });
  }
  const kernel = all()[name];
  if (!kernel.supported) throw new KernelUnavailableError({ caller, kernel: name, supported: fusedAttentionKernels().supported, hint: 'Leave kernel unset to use the fastest one here.' });
  return kernel;
}
