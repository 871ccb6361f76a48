import { decodeBase64 } from './decode-base64.js';
import type { F32KernelName } from './f32-kernel-name.js';
import { growKernelMemory } from './grow-kernel-memory.js';
import { KeptRegion } from './kept-region.js';
import type { Int8Activation } from './int8-gemm-kernel.js';
import type { F32GemmKernel, F32GemmRequest } from './f32-gemm-kernel.js';
import { sharedKernelInstance, type ThreadedModuleName } from './kernel-threads.js';


/**
 * A float32 multiply-add counted as this many int8 ones in a job's work (the unit of
 * `SMALL_JOB_WORK`, below which a job stays on the calling thread): a SIMD instruction holds 4 float32
 * lanes against 8 or 16 int8 ones, and a weight streams 4 bytes against 1.
 */
export const F32_WORK_PER_MULTIPLY_ADD = 4;
/** What the C kernels (csrc/f32-gemm.h) export. Pointers are byte offsets in the module's memory. */
interface F32GemmExports {
  heap_base(): number;
  packed_floats(m: number, k: number): number;
  run_part(job: number, part: number, parts: number): void;
}

interface F32GemmInstance {
  readonly exports: F32GemmExports;
  readonly memory: WebAssembly.Memory;
  readonly base: number;
  run(job: number, work?: number): void;
}

const JOB_BYTES = 64; // csrc/f32-gemm.h f32_gemm_job: n, m, k, a, w, bias, activation, out, packed, phase, residual, gamma, beta, eps, pack (15 words, rounded up)

/** Bytes of packed weights a module keeps at most (beyond, a weight is packed for each call, and those kept stay): room for the Linear weights of a float32 model of up to about 260 M parameters (SmolLM-135M's are 540 MB) within the 2 GiB the kernels address. */
export const PACKED_WEIGHT_BUDGET = 2 ** 30;

interface PackedWeight {
  readonly offset: number;
  readonly bytes: number;
  readonly rows: number;
  readonly depth: number;
}
const ACTIVATIONS: Record<Int8Activation, number> = { gelu: 1 }; // f32_gemm_job.activation

/**
 * One of the WebAssembly float32 GEMM modules (built from csrc/f32-gemm*.c by
 * scripts/build-wasm.mjs), driven from JavaScript: the operands are copied into the module's
 * memory (grown as needed, never shrunk), the kernel runs, the output is read out. A weight given
 * with a key is packed once and its panels kept in the module's memory for later calls (as
 * XNNPACK keeps packed weights), so a call then copies only its input. Where memory can be shared
 * with workers (`kernelThreads`), the module's threads variant is used and each product is split
 * over the threads by 8-column panels (the same numbers, bit for bit).
 *
 * @example
 * const simd = new WasmF32Gemm('simd', F32_GEMM_SIMD_WASM, 'f32-gemm-simd');
 * simd.multiply({ read: () => x, weight: () => w, bias, rows: 2, cols: 3, depth: 4, activation: undefined, residualLayerNorm: undefined, inPlace: false, caller: 'test' }); // Float32Array [2, 3]
 */
export class WasmF32Gemm implements F32GemmKernel {
  readonly name: F32KernelName;
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #threaded: ThreadedModuleName | undefined;
  #supported: boolean | undefined;
  #instance: F32GemmInstance | undefined;
  /** Packed weight panels kept in the module's memory, by the weight's data key. */
  readonly #kept = new KeptRegion<PackedWeight>(PACKED_WEIGHT_BUDGET);

  /** `threaded`: the name of the module's threads variant (kernel-threads.ts), used where memory can be shared. */
  constructor(name: F32KernelName, base64: string, threaded?: ThreadedModuleName) {
    this.name = name;
    this.#bytes = decodeBase64(base64);
    this.#threaded = threaded;
  }

  /** Whether this engine validates the module (its SIMD instructions). */
  get supported(): boolean {
    this.#supported ??= typeof WebAssembly === 'object' && WebAssembly.validate(this.#bytes);
    return this.#supported;
  }

  /** The product `[N, M]` of a request (empty when N or M is 0). */
  multiply(request: F32GemmRequest): Float32Array {
    const { rows, cols, depth, bias, activation, residualLayerNorm, inPlace } = request;
    if (rows * cols === 0) return new Float32Array(0);
    const instance = this.#load();
    const { memory, exports } = instance;
    const packedBytes = 4 * exports.packed_floats(cols, depth);
    const kept = this.#keptWeight(instance, request, packedBytes);
    const at = this.#place(instance, request, kept === undefined ? packedBytes : 0);
    const buffer = memory.buffer;
    if (kept === undefined || !kept.ready) new Float32Array(buffer, at.w, cols * depth).set(request.weight());
    const packed = kept === undefined ? at.packed : kept.offset;
    new Float32Array(buffer, at.a, rows * depth).set(request.read());
    if (bias !== undefined) new Float32Array(buffer, at.bias, cols).set(bias);
    if (residualLayerNorm !== undefined) {
      new Float32Array(buffer, at.gamma, cols).set(residualLayerNorm.gamma);
      new Float32Array(buffer, at.beta, cols).set(residualLayerNorm.beta);
      new Float32Array(buffer, at.residual, rows * cols).set(residualLayerNorm.residual); // last: may be a view of another heap
    }
    const words = new Int32Array(buffer, at.job, JOB_BYTES / 4);
    words.set([rows, cols, depth, at.a, at.w, bias === undefined ? 0 : at.bias, activation === undefined ? 0 : ACTIVATIONS[activation], at.out, packed, 0, at.residual, at.gamma, at.beta, 0, kept?.ready === true ? 0 : 1]);
    new Float32Array(buffer, at.job + 52, 1)[0] = residualLayerNorm?.epsilon ?? 0; // f32_gemm_job.eps
    const work = F32_WORK_PER_MULTIPLY_ADD * rows * cols * depth;
    instance.run(at.job, work); // the panels of the product (packed first where they are not kept yet), on every thread (one, for a small product)
    kept?.markReady();
    if (residualLayerNorm !== undefined) {
      words[9] = 1; // f32_gemm_job.phase: the rows' residual LayerNorm, once every column is done
      instance.run(at.job, work);
    }
    const view = new Float32Array(memory.buffer, at.out, rows * cols);
    return inPlace ? view : view.slice();
  }

  /** Bytes of packed weights kept now, and how many weights (for tests and reports). */
  get packedWeights(): { readonly count: number; readonly bytes: number } {
    return this.#kept.stats;
  }

  /**
   * Where the request's weight panels are kept (`ready`: packed by an earlier call; else this call
   * packs them there), or undefined when they are packed for this call only: no key, another shape
   * under the same key (a reshape of the same values), or more than the budget.
   */
  #keptWeight(instance: F32GemmInstance, { weightKey, cols, depth, caller }: F32GemmRequest, bytes: number): { offset: number; ready: boolean; markReady(): void } | undefined {
    if (weightKey === undefined) return undefined;
    const found = this.#kept.get(weightKey.key);
    if (found !== undefined) return found.rows === cols && found.depth === depth ? { offset: found.offset, ready: true, markReady: () => {} } : undefined;
    const offset = this.#kept.reserve(bytes);
    if (offset === undefined) return undefined;
    growKernelMemory(instance.memory, offset + bytes, { caller, what: `the packed panels of a float32 [${cols}, ${depth}] weight`, kernel: this.name });
    return { offset, ready: false, markReady: () => this.#kept.commit(weightKey.key, weightKey.owner, { offset, bytes, rows: cols, depth }) };
  }

  /** Lays out, 16-byte aligned after the kept weights: A, W, the bias, the output, the weight's panels for this call (`packedBytes`, 0 when kept), the residual LayerNorm's operands; grows the memory to fit. */
  #place(instance: F32GemmInstance, { rows, cols, depth, residualLayerNorm, caller }: F32GemmRequest, packedBytes: number) {
    const align = (offset: number) => Math.ceil(offset / 16) * 16;
    const at = { job: instance.base, a: 0, w: 0, bias: 0, out: 0, packed: 0, residual: 0, gamma: 0, beta: 0, end: 0 };
    at.a = this.#kept.end;
    at.w = align(at.a + 4 * rows * depth);
    at.bias = align(at.w + 4 * cols * depth);
    at.out = align(at.bias + 4 * cols);
    at.packed = align(at.out + 4 * rows * cols);
    at.end = at.packed + packedBytes;
    if (residualLayerNorm !== undefined) {
      at.residual = align(at.end);
      at.gamma = align(at.residual + 4 * rows * cols);
      at.beta = align(at.gamma + 4 * cols);
      at.end = at.beta + 4 * cols;
    }
    growKernelMemory(instance.memory, at.end, { caller, what: `the buffers of a float32 [${rows}, ${depth}] x [${cols}, ${depth}]ᵀ product`, kernel: this.name });
    return at;
  }

  /** The shared-memory instance where threads are possible, else the module's own. */
  #load(): F32GemmInstance {
    if (this.#instance !== undefined) return this.#instance;
    const shared = this.#threaded === undefined ? undefined : sharedKernelInstance<F32GemmExports>(this.#threaded);
    if (shared !== undefined) {
      this.#instance = { exports: shared.exports, memory: shared.memory, base: shared.base, run: (job, work) => shared.run(job, work) };
    } else {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(this.#bytes)).exports as unknown as F32GemmExports & { readonly memory: WebAssembly.Memory };
      this.#instance = { exports, memory: exports.memory, base: Math.ceil(exports.heap_base() / 16) * 16, run: (job) => exports.run_part(job, 0, 1) };
    }
    this.#kept.restart(this.#instance.base + JOB_BYTES); // nothing kept yet, right after the job words
    return this.#instance;
  }
}
