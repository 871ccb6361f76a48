import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { F32_KERNEL_NAMES, type F32KernelName } from './f32-kernel-name.js';
import type { F32GemmKernel } from './f32-gemm-kernel.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';
import { WasmF32Gemm } from './wasm-f32-gemm.js';
import { F32_GEMM_RELAXED_SIMD_WASM } from './wasm/f32-gemm-relaxed-simd.wasm.js';
import { F32_GEMM_SIMD_WASM } from './wasm/f32-gemm-simd.wasm.js';

let kernels: Record<F32KernelName, WasmF32Gemm> | undefined;

function all() {
  kernels ??= {
    'relaxed-simd': new WasmF32Gemm('relaxed-simd', F32_GEMM_RELAXED_SIMD_WASM, 'f32-gemm-relaxed-simd'),
    simd: new WasmF32Gemm('simd', F32_GEMM_SIMD_WASM, 'f32-gemm-simd'),
  };
  return kernels;
}

/** What {@link f32Kernels} reports. */
export interface F32KernelReport {
  /** The kernels this engine runs, fastest first (empty where WebAssembly SIMD does not validate). */
  readonly supported: readonly F32KernelName[];
  /** The one `f32MatMul` uses by default: the first supported, or undefined when none is. */
  readonly preferred: F32KernelName | undefined;
}

/**
 * Which float32 GEMM kernels this JavaScript engine runs, found by validating each WebAssembly
 * module (no code runs). Relaxed SIMD is on in Chrome/Edge ≥ 114 and Node ≥ 22 (Node 20: with
 * `--experimental-wasm-relaxed-simd`); SIMD128 in every current engine.
 *
 * @example
 * f32Kernels(); // Node 20: { supported: ['simd'], preferred: 'simd' }; Chrome: { supported: ['relaxed-simd', 'simd'], preferred: 'relaxed-simd' }
 */
export function f32Kernels(): F32KernelReport {
  const supported = F32_KERNEL_NAMES.filter((name) => all()[name].supported);
  return { supported, preferred: supported[0] };
}

/**
 * The float32 kernel called `name` (default: the preferred one), or a typed error: an unknown name
 * is an `InvalidArgumentError`, a known one this engine cannot run (or none at all) a
 * `KernelUnavailableError`.
 *
 * @example
 * f32Kernel('simd', 'f32MatMul').multiply(request);
 */
export function f32Kernel(name: F32KernelName | undefined, caller: string): F32GemmKernel {
  if (name !== undefined && !(F32_KERNEL_NAMES as readonly unknown[]).includes(name)) {
    throw new InvalidArgumentError({ caller, argument: 'kernel', expected: `one of ${F32_KERNEL_NAMES.map((n) => `'${n}'`).join(', ')}`, received: describeValue(name) });
  }
  const chosen = name ?? f32Kernels().preferred;
  const kernel = chosen === undefined ? undefined : all()[chosen];
  if (kernel === undefined || !kernel.supported) {
    const hint = name === 'relaxed-simd' ? 'Leave kernel unset to use the fastest one here; Node 20 runs relaxed SIMD with node --experimental-wasm-relaxed-simd.' : 'This engine lacks WebAssembly SIMD: use tfjs matMul.';
    throw new KernelUnavailableError({ caller, kernel: chosen ?? 'simd', supported: f32Kernels().supported, hint });
  }
  return kernel;
}
