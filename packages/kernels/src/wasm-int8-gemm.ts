import { ResourceLimitError } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { decodeBase64 } from './decode-base64.js';
import type { Int8GemmKernel, Int8GemmShape } from './int8-gemm-kernel.js';
import type { Int8KernelName } from './int8-kernel-name.js';
import { sharedKernelInstance, type ThreadedModuleName } from './kernel-threads.js';

/** What the C kernels (csrc/int8-gemm.h) export. Pointers are byte offsets in the module's memory. */
interface GemmExports {
  heap_base(): number;
  scratch_bytes(n: number, m: number, k: number): number;
  int8_gemm_i32(a: number, b: number, n: number, m: number, k: number, out: number, scratch: number): void;
  int8_gemm(a: number, b: number, n: number, m: number, k: number, rowScale: number, colScale: number, bias: number, out: number, scratch: number): void;
  quantize_rows(x: number, n: number, k: number, levels: number, out: number, scales: number): number;
  int8_gemm_pack(a: number, b: number, n: number, m: number, k: number, scratch: number): void;
  run_part(job: number, part: number, parts: number): void;
}

/** An instance of the module with where its operands may start and how a packed job runs (on threads or not). */
interface GemmInstance {
  readonly exports: GemmExports;
  readonly memory: WebAssembly.Memory;
  readonly base: number;
  run(job: number): void;
}

const JOB_BYTES = 32; // csrc/int8-gemm.h gemm_job: n, m, k, row_scale, col_scale, bias, out, scratch

const PAGE = 65536;
const MAX_BYTES = 2 ** 31; // the C kernels index with int32 offsets

/**
 * One of the WebAssembly int8 GEMM modules (built from csrc/ by scripts/build-wasm.mjs), driven
 * from JavaScript: the inputs are copied into the module's memory (grown as needed, never
 * shrunk), the kernel runs, the output is copied out. The module is compiled on first use. Where
 * memory can be shared with workers (`kernelThreads`), the module's threads variant is used and
 * each float product is split over the threads by output columns (the same numbers, bit for bit).
 *
 * @example
 * const simd = new WasmInt8Gemm('simd', INT8_GEMM_SIMD_WASM, 127);
 * if (simd.supported) simd.accumulate(a, b, { rows: 2, cols: 3, depth: 4 }); // Int32Array [2, 3]
 */
export class WasmInt8Gemm implements Int8GemmKernel {
  readonly name: Int8KernelName;
  readonly activationLevels: 127 | 63;
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #threaded: ThreadedModuleName | undefined;
  #supported: boolean | undefined;
  #instance: GemmInstance | undefined;

  /** `threaded`: the name of the module's threads variant (kernel-threads.ts), used where memory can be shared. */
  constructor(name: Int8KernelName, base64: string, activationLevels: 127 | 63, threaded?: ThreadedModuleName) {
    this.name = name;
    this.activationLevels = activationLevels;
    this.#bytes = decodeBase64(base64);
    this.#threaded = threaded;
  }

  /** Whether this engine validates the module (its SIMD instructions). */
  get supported(): boolean {
    this.#supported ??= typeof WebAssembly === 'object' && WebAssembly.validate(this.#bytes);
    return this.#supported;
  }

  accumulate(a: Int8Array, b: Int8Array, shape: Int8GemmShape): Int32Array {
    const { rows, cols, depth } = shape;
    const out = new Int32Array(rows * cols);
    if (out.length === 0) return out;
    const [{ exports, memory }, at] = this.#place(a, b, shape, 0);
    exports.int8_gemm_i32(at.a, at.b, rows, cols, depth, at.out, at.scratch);
    out.set(new Int32Array(memory.buffer, at.out, out.length));
    return out;
  }

  multiply(a: Int8Array, b: Int8Array, shape: Int8GemmShape, rowScales: Float32Array, colScales: Float32Array, bias?: Float32Array): Float32Array {
    return this.#multiply(a, undefined, b, shape, rowScales, colScales, bias, '');
  }

  quantizedMultiply(x: Float32Array, b: Int8Array, shape: Int8GemmShape, colScales: Float32Array, bias: Float32Array | undefined, caller: string): Float32Array {
    return this.#multiply(undefined, x, b, shape, undefined, colScales, bias, caller);
  }

  /** The float product from int8 A and its scales, or from float x quantized here by the module's quantize_rows. */
  #multiply(a: Int8Array | undefined, x: Float32Array | undefined, b: Int8Array, shape: Int8GemmShape, rowScales: Float32Array | undefined, colScales: Float32Array, bias: Float32Array | undefined, caller: string): Float32Array {
    const { rows, cols, depth } = shape;
    const out = new Float32Array(rows * cols);
    if (out.length === 0) return out;
    const floats = x === undefined ? 0 : 4 * rows * depth;
    const [instance, at] = this.#place(a, b, shape, 4 * (rows + 2 * cols) + floats);
    const { exports: kernel, memory } = instance;
    let buffer = memory.buffer;
    const rowScale = at.extra;
    const colScale = rowScale + 4 * rows;
    const biasAt = colScale + 4 * cols;
    const xAt = biasAt + 4 * cols;
    if (x === undefined) {
      new Float32Array(buffer, rowScale, rows).set(rowScales as Float32Array);
    } else {
      new Float32Array(buffer, xAt, x.length).set(x);
      const bad = kernel.quantize_rows(xAt, rows, depth, this.activationLevels, at.a, rowScale); // [N, K] float32 -> int8 + [N] scales
      if (bad >= 0) {
        throw new InvalidArgumentError({ caller, argument: 'x', expected: 'finite values only (int8 quantization scales each row by its largest magnitude)', received: `${x[bad]} at flat index ${bad}`, hint: 'Replace or mask the non-finite values first.' });
      }
      buffer = memory.buffer;
    }
    new Float32Array(buffer, colScale, cols).set(colScales);
    if (bias !== undefined) new Float32Array(buffer, biasAt, cols).set(bias);
    kernel.int8_gemm_pack(at.a, at.b, rows, cols, depth, at.scratch);
    new Int32Array(memory.buffer, at.job, JOB_BYTES / 4).set([rows, cols, depth, rowScale, colScale, bias === undefined ? 0 : biasAt, at.out, at.scratch]);
    instance.run(at.job); // the column shares of the packed product, on every thread
    out.set(new Float32Array(memory.buffer, at.out, out.length));
    return out;
  }

  /** Lays out the job words, A, B, the output, `extra` bytes and the packing scratch from the instance's base, 16-byte aligned; copies A and B in. */
  #place(a: Int8Array | undefined, b: Int8Array, { rows, cols, depth }: Int8GemmShape, extra: number) {
    const instance = this.#load();
    const { exports: kernel, memory } = instance;
    const align = (offset: number) => Math.ceil(offset / 16) * 16;
    const at = { job: instance.base, a: instance.base + JOB_BYTES, b: 0, out: 0, extra: 0, scratch: 0 };
    at.b = align(at.a + rows * depth);
    at.out = align(at.b + cols * depth);
    at.extra = align(at.out + 4 * rows * cols);
    at.scratch = align(at.extra + extra);
    const scratch = 2 * (Math.ceil(rows / 4) * 4 + Math.ceil(cols / 2) * 2) * (Math.ceil(depth / 16) * 16) + 4 * cols + 64; // an upper bound, in doubles: no int32 overflow
    const end = at.scratch + scratch;
    if (end > MAX_BYTES) {
      throw new ResourceLimitError({ caller: 'int8MatMul', what: `the buffers of an int8 [${rows}, ${depth}] x [${cols}, ${depth}]ᵀ product`, backend: `the ${this.name} kernel`, bytes: end, limit: MAX_BYTES, rule: 'the kernels address at most 2 GiB', hint: 'Split the rows into smaller batches.' });
    }
    const exact = at.scratch + kernel.scratch_bytes(rows, cols, depth);
    const missing = exact - memory.buffer.byteLength;
    if (missing > 0) {
      try {
        memory.grow(Math.ceil(missing / PAGE));
      } catch (cause) {
        throw new ResourceLimitError({ caller: 'int8MatMul', what: `the buffers of an int8 [${rows}, ${depth}] x [${cols}, ${depth}]ᵀ product`, backend: `the ${this.name} kernel`, bytes: exact, limit: memory.buffer.byteLength, rule: `the engine refused to grow the module's memory: ${String(cause)}`, hint: 'Split the rows into smaller batches.' });
      }
    }
    if (a !== undefined) new Int8Array(memory.buffer, at.a, a.length).set(a);
    new Int8Array(memory.buffer, at.b, b.length).set(b);
    return [instance, at] as const;
  }

  /** The shared-memory instance where threads are possible, else the module's own. */
  #load(): GemmInstance {
    if (this.#instance !== undefined) return this.#instance;
    const shared = this.#threaded === undefined ? undefined : sharedKernelInstance<GemmExports>(this.#threaded);
    if (shared !== undefined) {
      this.#instance = { exports: shared.exports, memory: shared.memory, base: shared.base, run: (job) => shared.run(job) };
    } else {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(this.#bytes)).exports as unknown as GemmExports & { readonly memory: WebAssembly.Memory };
      this.#instance = { exports, memory: exports.memory, base: Math.ceil(exports.heap_base() / 16) * 16, run: (job) => exports.run_part(job, 0, 1) };
    }
    return this.#instance;
  }
}
