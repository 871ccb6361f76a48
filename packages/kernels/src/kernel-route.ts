import { InvalidArgumentError, describeValue, isTensorLike } from '@attnkit/errors';
import { engine, getBackend, getKernel, type Tensor } from '@tensorflow/tfjs-core';
import { f32Kernels } from './f32-kernels.js';
import { fusedAttentionKernels } from './fused-attention-kernels.js';
import { ATTENTION_ROWS_KERNEL } from './tfjs-fills/wasm-attention-rows-fill.js';
import { KV_APPEND_KERNEL } from './tfjs-fills/wasm-kv-append-fill.js';
import { DECODE_ATTENTION_KERNEL } from './tfjs-fills/wasm-decode-attention-fill.js';
import { GELU_KERNEL } from './tfjs-fills/wasm-gelu-fill.js';
import { GELU_TANH_KERNEL } from './tfjs-fills/wasm-gelu-tanh-fill.js';
import { LAYER_NORM_KERNEL } from './tfjs-fills/wasm-layer-norm-fill.js';
import { MASKED_SOFTMAX_KERNEL } from './tfjs-fills/wasm-masked-softmax-fill.js';
import { RMS_NORM_KERNEL } from './tfjs-fills/wasm-rms-norm-fill.js';
import { ROTARY_KERNEL } from './tfjs-fills/wasm-rotary-fill.js';
import { SILU_MUL_KERNEL } from './tfjs-fills/wasm-silu-mul-fill.js';

/** The hand-written kernels a call can be routed to, each replacing tfjs ops. */
export type RoutedKernel = 'f32MatMul' | 'int8MatMul' | 'fusedAttention' | 'gelu' | 'layerNorm' | 'maskedSoftmax' | 'rmsNorm' | 'siluMul' | 'rotary' | 'geluTanh' | 'attentionRows' | 'kvAppend' | 'decodeAttention';

/** What {@link kernelRoute} decides for one call. */
export interface KernelRoute {
  /** Run the hand-written kernel rather than the tfjs ops it replaces. */
  readonly useKernel: boolean;
  /** The kernel's output view may go to tfjs as is (tfjs-wasm copies an upload into its heap at once; cpu keeps what it is given). */
  readonly inPlace: boolean;
}

/** Per kernel: whether it records no gradient (so never while the tape is on), and whether this engine and backend run it. */
const RULES: Readonly<Record<RoutedKernel, { readonly inferenceOnly: boolean; readonly available: (backend: string) => boolean }>> = {
  f32MatMul: { inferenceOnly: true, available: (backend) => backend === 'wasm' && f32Kernels().preferred !== undefined },
  int8MatMul: { inferenceOnly: true, available: () => true }, // the only int8 arithmetic there is ('js' where SIMD is missing), on any backend
  fusedAttention: { inferenceOnly: true, available: (backend) => backend === 'wasm' && fusedAttentionKernels().supported.includes('simd') },
  gelu: { inferenceOnly: false, available: (backend) => getKernel(GELU_KERNEL, backend) !== undefined }, // registered with its gradient on wasm
  layerNorm: { inferenceOnly: false, available: (backend) => getKernel(LAYER_NORM_KERNEL, backend) !== undefined },
  maskedSoftmax: { inferenceOnly: false, available: (backend) => getKernel(MASKED_SOFTMAX_KERNEL, backend) !== undefined },
  rmsNorm: { inferenceOnly: true, available: (backend) => getKernel(RMS_NORM_KERNEL, backend) !== undefined }, // no gradient: the composite while recording
  siluMul: { inferenceOnly: true, available: (backend) => getKernel(SILU_MUL_KERNEL, backend) !== undefined },
  rotary: { inferenceOnly: true, available: (backend) => getKernel(ROTARY_KERNEL, backend) !== undefined },
  geluTanh: { inferenceOnly: true, available: (backend) => getKernel(GELU_TANH_KERNEL, backend) !== undefined },
  attentionRows: { inferenceOnly: true, available: (backend) => getKernel(ATTENTION_ROWS_KERNEL, backend) !== undefined },
  kvAppend: { inferenceOnly: true, available: (backend) => getKernel(KV_APPEND_KERNEL, backend) !== undefined },
  decodeAttention: { inferenceOnly: true, available: (backend) => getKernel(DECODE_ATTENTION_KERNEL, backend) !== undefined },
};

/**
 * The one place that decides whether a call runs on attnkit's hand-written kernel or on the tfjs
 * ops it replaces: the backend (the products and fused attention beat tfjs on wasm only; the
 * registered kernels exist on wasm only), this engine (WebAssembly SIMD), the gradient tape (the
 * products and fused attention record none), and the dtype (every given floating input float32).
 * What is specific to one call's form (a LayerNorm weight of exactly `[E]`, the default scorer) stays
 * with its caller. Also says whether the kernel's output may be handed to tfjs without a copy.
 *
 * @param inputs the call's float inputs (undefined ones, such as an absent bias, are skipped)
 * @example
 * if (kernelRoute('gelu', [x]).useKernel) return engine().runKernel(GELU_KERNEL, { x }) as Tensor;
 * if (kernelRoute('f32MatMul', [x, weight, bias]).useKernel) return f32MatMulUnchecked(x, weight, bias);
 */
export function kernelRoute(kernel: RoutedKernel, inputs: readonly (Tensor | undefined)[] = []): KernelRoute {
  if (typeof kernel !== 'string' || !Object.hasOwn(RULES, kernel)) throw new InvalidArgumentError({ caller: 'kernelRoute', argument: 'kernel', expected: `one of ${Object.keys(RULES).map((k) => `'${k}'`).join(', ')}`, received: describeValue(kernel) });
  if (!Array.isArray(inputs)) throw new InvalidArgumentError({ caller: 'kernelRoute', argument: 'inputs', expected: 'a list of the call\'s input tensors', received: describeValue(inputs) });
  for (let i = 0; i < inputs.length; i++) {
    const t: unknown = inputs[i];
    if (t !== undefined && !isTensorLike(t)) throw new InvalidArgumentError({ caller: 'kernelRoute', argument: `inputs[${i}]`, expected: 'a tensor (or undefined: an optional input left out)', received: describeValue(t) });
  }
  const backend = getBackend();
  const rule = RULES[kernel];
  const useKernel = (!rule.inferenceOnly || !engine().isTapeOn()) && inputs.every((t) => t === undefined || t.dtype === 'float32') && rule.available(backend);
  return { useKernel, inPlace: backend === 'wasm' };
}
