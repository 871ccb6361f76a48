import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { Int8GemmKernel } from './int8-gemm-kernel.js';
import { INT8_KERNEL_NAMES, type Int8KernelName } from './int8-kernel-name.js';
import { jsInt8Gemm } from './js-int8-gemm.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';
import { WasmInt8Gemm } from './wasm-int8-gemm.js';
import { INT8_GEMM_RELAXED_SIMD_WASM } from './wasm/int8-gemm-relaxed-simd.wasm.js';
import { INT8_GEMM_SIMD_WASM } from './wasm/int8-gemm-simd.wasm.js';
import { INT8_GEMM_RELAXED_DOT_ADD_WASM } from './wasm/int8-gemm-relaxed-dot-add.wasm.js';

let kernels: Record<Int8KernelName, Int8GemmKernel & { readonly supported: boolean }> | undefined;

function all() {
  kernels ??= {
    'relaxed-simd': new WasmInt8Gemm('relaxed-simd', INT8_GEMM_RELAXED_SIMD_WASM, 63, 'int8-gemm-relaxed-simd', { base64: INT8_GEMM_RELAXED_DOT_ADD_WASM, threaded: 'int8-gemm-relaxed-dot-add' }), // the fused dot where the engine computes it right
    simd: new WasmInt8Gemm('simd', INT8_GEMM_SIMD_WASM, 127, 'int8-gemm-simd'),
    js: { ...jsInt8Gemm, supported: true },
  };
  return kernels;
}

/** What {@link int8Kernels} reports. */
export interface Int8KernelReport {
  /** The kernels this engine runs, fastest first (`'js'` always). */
  readonly supported: readonly Int8KernelName[];
  /** The one `int8MatMul` uses by default: the first supported. */
  readonly preferred: Int8KernelName;
}

/**
 * Which int8 kernels this JavaScript engine runs, found by validating each WebAssembly module
 * (no code runs). Relaxed SIMD is on in Chrome/Edge ≥ 114 and Node ≥ 22 (Node 20: with
 * `--experimental-wasm-relaxed-simd`); SIMD128 in every current engine.
 *
 * @example
 * int8Kernels(); // Node 20: { supported: ['simd', 'js'], preferred: 'simd' }
 */
export function int8Kernels(): Int8KernelReport {
  const supported = INT8_KERNEL_NAMES.filter((name) => all()[name].supported);
  return { supported, preferred: supported[0] as Int8KernelName };
}

/**
 * The kernel called `name` (default: the preferred one), or a typed error: an unknown name is an
 * `InvalidArgumentError`, a known one this engine cannot run a `KernelUnavailableError`.
 *
 * @example
 * int8Kernel('simd', 'int8MatMul').accumulate(a, b, shape);
 */
export function int8Kernel(name: Int8KernelName | undefined, caller: string): Int8GemmKernel {
  if (name === undefined) return all()[int8Kernels().preferred];
  if (!(INT8_KERNEL_NAMES as readonly unknown[]).includes(name)) {
    throw new InvalidArgumentError({ caller, argument: 'kernel', expected: `one of ${INT8_KERNEL_NAMES.map((n) => `'${n}'`).join(', ')}`, received: describeValue(name) });
  }
  const kernel = all()[name];
  if (!kernel.supported) {
    const hint = name === 'relaxed-simd' ? 'Leave kernel unset to use the fastest one here; Node 20 runs relaxed SIMD with node --experimental-wasm-relaxed-simd.' : 'Leave kernel unset to use the fastest one here.';
    throw new KernelUnavailableError({ caller, kernel: name, supported: int8Kernels().supported, hint });
  }
  return kernel;
}
