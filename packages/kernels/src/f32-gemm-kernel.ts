import type { F32KernelName } from './f32-kernel-name.js';
import type { Int8Activation } from './int8-gemm-kernel.js';
import type { ResidualLayerNormValues } from './residual-layer-norm-f32.js';

/** One float32 product for {@link F32GemmKernel.multiply}: `out [N, M] = act(x [N, K] · weightᵀ + bias)`, then the residual LayerNorm if given. */
export interface F32GemmRequest {
  /** `[N, K]`; called once, after the memory is laid out (so a view of another heap may be passed). */
  readonly read: () => Float32Array;
  /** `[M, K]`, rows contiguous in K (PyTorch's Linear weight `[out, in]`); called only when the weight's packed panels are not kept from an earlier call. */
  readonly weight: () => Float32Array;
  /**
   * Keep the weight's packed panels between calls under this key (`dataKey` of the weight tensor:
   * equal keys mean equal values), until `owner` (the tensor's data id) is garbage-collected or
   * the kept panels pass the kernel's budget. Absent: packed for this call only.
   */
  readonly weightKey?: { readonly key: number; readonly owner: object };
  readonly bias: Float32Array | undefined;
  readonly rows: number;
  readonly cols: number;
  readonly depth: number;
  readonly activation: Int8Activation | undefined;
  readonly residualLayerNorm: ResidualLayerNormValues | undefined;
  /** Return a view of the module's memory (valid until the next call; for a consumer that copies at once) instead of a copy. */
  readonly inPlace: boolean;
  readonly caller: string;
}

/**
 * One float32 GEMM kernel (what `f32Kernel` returns): the product of flat arrays, on the kernel
 * threads, with the weight's packed panels kept between calls when keyed.
 *
 * @example
 * const y = f32Kernel('simd', 'test').multiply({ read: () => x, weight: () => w, bias: undefined, rows: 2, cols: 3, depth: 4, activation: undefined, residualLayerNorm: undefined, inPlace: false, caller: 'test' }); // [2, 3]
 */
export interface F32GemmKernel {
  readonly name: F32KernelName;
  /** Whether this engine validates the kernel's WebAssembly. */
  readonly supported: boolean;
  /** Packed weights kept now (count and bytes). */
  readonly packedWeights: { readonly count: number; readonly bytes: number };
  /** The product `[N, M]` of a request (empty when N or M is 0). */
  multiply(request: F32GemmRequest): Float32Array;
}
