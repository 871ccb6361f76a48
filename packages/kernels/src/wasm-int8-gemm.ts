import { InvalidArgumentError } from '@attnkit/errors';
import { decodeBase64 } from './decode-base64.js';
import { growKernelMemory } from './grow-kernel-memory.js';
import { KeptRegion } from './kept-region.js';
import type { Int8Activation, Int8GemmKernel, Int8GemmShape } from './int8-gemm-kernel.js';
import type { ResidualLayerNormValues } from './residual-layer-norm-f32.js';
import type { InputNormValues } from './input-norm-f32.js';
import type { Int8KernelName } from './int8-kernel-name.js';
import { sharedKernelInstance, type ThreadedModuleName } from './kernel-threads.js';

/** What the C kernels (csrc/int8-gemm.h) export. Pointers are byte offsets in the module's memory. */
interface GemmExports {
  heap_base(): number;
  scratch_bytes(n: number, m: number, k: number): number;
  int8_gemm_i32(a: number, b: number, n: number, m: number, k: number, out: number, scratch: number): void;
  int8_gemm(a: number, b: number, n: number, m: number, k: number, rowScale: number, colScale: number, bias: number, out: number, scratch: number): void;
  quantize_rows(x: number, n: number, k: number, levels: number, out: number, scales: number): number;
  int8_gemm_pack_a(a: number, n: number, k: number, scratch: number): void;
  int8_gemm_pack_b(b: number, n: number, m: number, k: number, scratch: number): void;
  packed_b_bytes(m: number, k: number): number;
  int8_gemm_pack_b_to(b: number, m: number, k: number, dst: number): void;
  bytes_equal(a: number, b: number, n: number): number;
  run_part(job: number, part: number, parts: number): void;
}

/** An instance of the module with where its operands may start and how a packed job runs (on threads or not). */
interface GemmInstance {
  readonly exports: GemmExports;
  readonly memory: WebAssembly.Memory;
  readonly base: number;
  run(job: number, work?: number): void;
}

const JOB_BYTES = 96; // csrc/int8-gemm.h gemm_job: n, m, k, row_scale, col_scale, bias, activation, out, scratch, phase, residual, gamma, beta, eps, packed_b, x, a, levels, bad, norm, norm_weight, norm_bias, norm_eps (23 words, rounded up)

/** Bytes of kept weights (source bytes and packed panels) a module holds at most; past it a weight is packed for each call while those kept stay (collected ones make room). */
export const KEPT_INT8_WEIGHT_BUDGET = 2 ** 29;

/** A weight kept in the module's memory: a copy of its int8 bytes and, after it, their packed panel. */
interface KeptInt8Weight {
  readonly source: number;
  readonly panels: number;
  /** A frozen weight's column scales [rows] float32, after its panel. */
  readonly scales: number;
  readonly bytes: number;
  readonly rows: number;
  readonly depth: number;
}
const ACTIVATIONS: Record<Int8Activation, number> = { gelu: 1 }; // gemm_job.activation
const NORMS: Record<InputNormValues['kind'], number> = { rmsNorm: 1, layerNorm: 2 }; // gemm_job.norm
/** What a product does besides multiplying: its input rows normalized first, a residual added last (see int8MatMul). */
interface ProductFusion {
  readonly inputNorm?: InputNormValues | undefined;
  readonly residual?: Float32Array | undefined;
  /** Its kept weight and layout, when the caller made them (gatedMultiply: two products laid out side by side). */
  readonly placed?: { readonly kept: KeptWeightUse | undefined; readonly instance: GemmInstance; readonly at: ProductLayout } | undefined;
}
/** Where #place put a product's operands (byte offsets in the module's memory). */
type ProductLayout = { job: number; x: number; rowScale: number; a: number; scratch: number; b: number; colScale: number; bias: number; out: number; residual: number; gamma: number; beta: number; normWeight: number; normBias: number; end: number };
/** A kept weight as #keptWeight finds or places it (`fresh`: not packed yet). */
type KeptWeightUse = { entry: KeptInt8Weight; fresh: boolean; commit(): void };
/** One weight of {@link WasmInt8Gemm.gatedMultiply}: its bytes `[cols, depth]`, column scales, bias and kept-weight key. */
export interface GatedProductWeight {
  readonly weight: Int8Array;
  readonly weightKey?: { readonly key: number; readonly owner: object; readonly frozen?: boolean } | undefined;
  readonly colScales: Float32Array;
  readonly bias: Float32Array | undefined;
  readonly cols: number;
  readonly depth: number;
}
/** Work counted per value of SwiGLU's silu(gate) · up between the products (gemm_job phase 4): a decoding step's row stays on the calling thread. */
const SILU_WORK_PER_VALUE = 16;
/** Quantizing and packing one activation value counted as this many multiply-adds of a job's work (SMALL_JOB_WORK): the rows of a decoding step stay on the calling thread, an encoder batch's are split. */
const QUANTIZE_WORK_PER_VALUE = 4;


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
  /** The key, rows, depth and scratch address of the activations whose quantized, packed rows are in memory now. */
  readonly #packed: { key: number | undefined; rows: number; depth: number; scratch: number } = { key: undefined, rows: 0, depth: 0, scratch: 0 };
  #memoryViews: { readonly i8: Int8Array; readonly i32: Int32Array; readonly f32: Float32Array } | undefined;
  /** Weights kept between products, by key (see {@link quantizedMultiplyReusing}). */
  readonly #kept = new KeptRegion<KeptInt8Weight>(KEPT_INT8_WEIGHT_BUDGET);

  /** A faster build of the same kernels, used instead where it validates and computes a known product exactly (see {@link fastVariant}). */
  readonly #fast: { readonly bytes: Uint8Array<ArrayBuffer>; readonly threaded: ThreadedModuleName | undefined } | undefined;
  #fastWorks: boolean | undefined;

  /**
   * `threaded`: the name of the module's threads variant (kernel-threads.ts), used where memory can
   * be shared. `fast`: another build of the same kernels (the same exports and exact results; the
   * relaxed module on the fused i32x4.relaxed_dot_i8x16_i7x16_add_s), used where the engine runs it right.
   */
  constructor(name: Int8KernelName, base64: string, activationLevels: 127 | 63, threaded?: ThreadedModuleName, fast?: { readonly base64: string; readonly threaded?: ThreadedModuleName }) {
    this.name = name;
    this.activationLevels = activationLevels;
    this.#bytes = decodeBase64(base64);
    this.#threaded = threaded;
    this.#fast = fast === undefined ? undefined : { bytes: decodeBase64(fast.base64), threaded: fast.threaded };
  }

  /**
   * Whether the faster build runs here: it validates, and its int32 accumulators of a fixed product
   * (K = 80: five steps accumulated, every operand sign) equal the exact ones. V8 11.3 (Node 20)
   * validates the fused relaxed dot but drops its accumulator: there the plain build is kept.
   */
  get fastVariant(): boolean {
    if (this.#fastWorks !== undefined) return this.#fastWorks;
    this.#fastWorks = false;
    const fast = this.#fast;
    if (fast === undefined || typeof WebAssembly !== 'object' || !WebAssembly.validate(fast.bytes)) return false;
    try {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(fast.bytes)).exports as unknown as GemmExports & { readonly memory: WebAssembly.Memory };
      const [n, m, k] = [5, 3, 80];
      const a = Int8Array.from({ length: n * k }, (_, i) => ((i * 37) % 128) - 64); // [-64, 63]: exact on the 7-bit kernel
      const b = Int8Array.from({ length: m * k }, (_, i) => ((i * 53) % 255) - 127);
      const base = Math.ceil(exports.heap_base() / 16) * 16;
      const at = { a: base, b: base + 512, out: base + 1024, scratch: base + 1152 };
      growKernelMemory(exports.memory, at.scratch + exports.scratch_bytes(n, m, k), { caller: 'int8Kernels', what: 'a check of the fused relaxed dot', kernel: this.name });
      new Int8Array(exports.memory.buffer, at.a, a.length).set(a);
      new Int8Array(exports.memory.buffer, at.b, b.length).set(b);
      exports.int8_gemm_i32(at.a, at.b, n, m, k, at.out, at.scratch);
      const got = new Int32Array(exports.memory.buffer, at.out, n * m);
      let exact = true;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < m; j++) {
          let sum = 0;
          for (let p = 0; p < k; p++) sum += (a[i * k + p] as number) * (b[j * k + p] as number);
          if (got[i * m + j] !== sum) exact = false;
        }
      }
      this.#fastWorks = exact;
    } catch {
      this.#fastWorks = false;
    }
    return this.#fastWorks;
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
    const [{ exports, memory }, at] = this.#place(shape);
    this.#packed.key = undefined;
    new Int8Array(memory.buffer, at.a, a.length).set(a);
    new Int8Array(memory.buffer, at.b, b.length).set(b);
    exports.int8_gemm_i32(at.a, at.b, rows, cols, depth, at.out, at.scratch);
    out.set(new Int32Array(memory.buffer, at.out, out.length));
    return out;
  }

  multiply(a: Int8Array, b: Int8Array, shape: Int8GemmShape, rowScales: Float32Array, colScales: Float32Array, bias?: Float32Array, activation?: Int8Activation): Float32Array {
    return this.#multiply({ a, rowScales }, b, shape, colScales, bias, '', activation);
  }

  quantizedMultiply(x: Float32Array, b: Int8Array, shape: Int8GemmShape, colScales: Float32Array, bias: Float32Array | undefined, caller: string, activation?: Int8Activation, residualLayerNorm?: ResidualLayerNormValues): Float32Array {
    return this.#multiply({ read: () => x }, b, shape, colScales, bias, caller, activation, false, residualLayerNorm);
  }

  /**
   * {@link quantizedMultiply} for activations known by a `key` (a tensor's values): when the last
   * product of this kernel quantized the same key with the same rows and depth, its quantized
   * and packed rows are still in the module's memory and are used as they are; `read` is then
   * not called. The query, key and value projections of one input quantize it once this way.
   * `inPlace`: return a view of the module's memory (valid until the next call; for a consumer
   * that copies at once, such as a tfjs-wasm upload) instead of a copy. `inputNorm`: each row of x
   * normalized before it is quantized (no reuse then: give no key); `residual [N, M]`: added to
   * the output last.
   */
  quantizedMultiplyReusing(request: { key: number | undefined; read: () => Float32Array; weight: Int8Array; weightKey?: { readonly key: number; readonly owner: object; readonly frozen?: boolean }; shape: Int8GemmShape; colScales: Float32Array; bias: Float32Array | undefined; caller: string; activation: Int8Activation | undefined; inPlace: boolean; residualLayerNorm: ResidualLayerNormValues | undefined; inputNorm?: InputNormValues | undefined; residual?: Float32Array | undefined }): Float32Array {
    const { key, read, weight, weightKey, shape, colScales, bias, caller, activation, inPlace, residualLayerNorm, inputNorm, residual } = request;
    return this.#multiply({ read, key }, weight, shape, colScales, bias, caller, activation, inPlace, residualLayerNorm, weightKey, { inputNorm, residual });
  }

  /**
   * SwiGLU's two products in one call, nothing leaving the module between them: `gateUp` `[2F, K]`
   * (the gate's F rows first) on x `[rows, K]` (each row normalized first with `inputNorm`), then
   * `hidden = silu(gate) · up` `[rows, F]` (csrc/silu-mul.h, by rows over the threads), then `down`
   * `[M, F]` on it, `residual [rows, M]` added last. The numbers of {@link quantizedMultiplyReusing},
   * the wasm SiLU · up kernel (`SILU_MUL_KERNEL`, the same C) and {@link quantizedMultiplyReusing}
   * again, bit for bit. `inPlace`: a view of the module's memory (valid until the next call).
   */
  gatedMultiply(request: { read: () => Float32Array; rows: number; gateUp: GatedProductWeight; down: GatedProductWeight; caller: string; inPlace: boolean; inputNorm?: InputNormValues | undefined; residual?: Float32Array | undefined }): Float32Array {
    const { read, rows, gateUp, down, caller, inPlace, inputNorm, residual } = request;
    if (gateUp.cols !== 2 * down.depth) throw new Error(`attnkit kernels: gatedMultiply needs gateUp [2F, K] and down [M, F]; got [${gateUp.cols}, ${gateUp.depth}] and [${down.cols}, ${down.depth}]`); // a bug, never an input error
    const first: Int8GemmShape = { rows, cols: gateUp.cols, depth: gateUp.depth };
    const second: Int8GemmShape = { rows, cols: down.cols, depth: down.depth };
    if (rows * down.cols === 0) return new Float32Array(0);
    let keptFirst = gateUp.weightKey === undefined ? undefined : this.#keptWeight(gateUp.weightKey, first, caller); // both before either layout: each may extend the kept region
    const restarts = this.#kept.restarts;
    const keptSecond = down.weightKey === undefined ? undefined : this.#keptWeight(down.weightKey, second, caller);
    if (this.#kept.restarts !== restarts && gateUp.weightKey !== undefined) keptFirst = this.#keptWeight(gateUp.weightKey, first, caller); // the second's reservation started the region again (collected weights dropped): the first's place is gone, so it is found or placed again (a restart leaves nothing collected, so this one cannot restart it)
    const [instance, at] = this.#place(first, false, inputNorm !== undefined);
    const [, next] = this.#place(second, residual !== undefined, false, at.end); // the second product's operands after the first's: its x is where silu · up writes
    this.#multiply({ read }, gateUp.weight, first, gateUp.colScales, gateUp.bias, caller, undefined, true, undefined, gateUp.weightKey, { inputNorm, placed: { kept: keptFirst, instance, at } });
    if (down.depth > 0) {
      const { i32 } = this.#views(instance.memory);
      const job = at.job >> 2;
      i32.fill(0, job, job + JOB_BYTES / 4);
      i32[job] = rows, i32[job + 1] = down.depth, i32[job + 7] = next.x, i32[job + 9] = 4, i32[job + 15] = at.out; // gemm_job: n, m = F, out = the next x, phase 4, x = [rows, 2F]
      instance.run(at.job, SILU_WORK_PER_VALUE * rows * down.depth);
    }
    return this.#multiply({ inMemory: true }, down.weight, second, down.colScales, down.bias, caller, undefined, inPlace, undefined, down.weightKey, { residual, placed: { kept: keptSecond, instance, at: next } });
  }

  /** Weights kept now and their bytes (source copies and panels), for tests and reports. */
  get keptWeights(): { readonly count: number; readonly bytes: number } {
    return this.#kept.stats;
  }

  /** The float product from int8 A and its scales, or from float x quantized here by the module's quantize_rows (or still there from the last call with the same key). */
  #multiply(source: { a: Int8Array; rowScales: Float32Array } | { read: () => Float32Array; key?: number | undefined } | { inMemory: true }, b: Int8Array, shape: Int8GemmShape, colScales: Float32Array, bias: Float32Array | undefined, caller: string, activation: Int8Activation | undefined, inPlace = false, residualLayerNorm?: ResidualLayerNormValues, weightKey?: { readonly key: number; readonly owner: object; readonly frozen?: boolean }, fusion: ProductFusion = {}): Float32Array {
    const { rows, cols, depth } = shape;
    if (rows * cols === 0) return new Float32Array(0);
    const { inputNorm, residual, placed } = fusion;
    const kept = placed !== undefined ? placed.kept : weightKey === undefined ? undefined : this.#keptWeight(weightKey, shape, caller); // before the layout: it may extend the kept region
    const [instance, at] = placed !== undefined ? [placed.instance, placed.at] as const : this.#place(shape, residualLayerNorm !== undefined || residual !== undefined, inputNorm !== undefined);
    const { exports: kernel } = instance;
    const { i8, i32, f32 } = this.#views(instance.memory); // one view of each type over the whole memory: no view made per operand (a decoding step makes hundreds of products)
    const job = at.job >> 2; // gemm_job's words
    const key = 'key' in source ? source.key : undefined;
    const reused = key !== undefined && key === this.#packed.key && rows === this.#packed.rows && depth === this.#packed.depth && at.scratch === this.#packed.scratch; // the scratch address too: A's panel moves when the kept region grows
    this.#packed.key = undefined; // A's region is rewritten below unless reused
    if (!reused) {
      if ('a' in source) {
        i8.set(source.a, at.a);
        f32.set(source.rowScales, at.rowScale >> 2);
        kernel.int8_gemm_pack_a(at.a, rows, depth, at.scratch);
      } else {
        const x = 'read' in source ? source.read() : undefined; // in memory: already at at.x (gatedMultiply's hidden rows)
        if (x !== undefined) f32.set(x, at.x >> 2);
        if (inputNorm !== undefined) {
          f32.set(inputNorm.weight, at.normWeight >> 2);
          if (inputNorm.bias !== undefined) f32.set(inputNorm.bias, at.normBias >> 2);
        }
        // [N, K] float32 (-> normalized) -> int8 + [N] scales -> A's panel, the blocks of rows shared among the threads (gemm_job phase 2)
        i32.fill(0, job, job + JOB_BYTES / 4);
        i32[job] = rows, i32[job + 1] = cols, i32[job + 2] = depth, i32[job + 3] = at.rowScale, i32[job + 8] = at.scratch, i32[job + 9] = 2;
        i32[job + 15] = at.x, i32[job + 16] = at.a, i32[job + 17] = this.activationLevels;
        if (inputNorm !== undefined) i32[job + 19] = NORMS[inputNorm.kind], i32[job + 20] = at.normWeight, i32[job + 21] = at.normBias, f32[job + 22] = inputNorm.epsilon;
        instance.run(at.job, QUANTIZE_WORK_PER_VALUE * rows * depth); // quantizing a few rows (a decoding step's) stays on this thread
        if (i32[job + 18] !== 0) { // gemm_job.bad: a part met a NaN or ±Infinity: the first one, on this thread
          const given = inputNorm === undefined || x === undefined ? -1 : x.findIndex((v) => !Number.isFinite(v)); // normalized, a row is all NaN: name the value given
          const bad = given >= 0 ? given : kernel.quantize_rows(at.x, rows, depth, this.activationLevels, at.a, at.rowScale);
          const value = x === undefined ? `${f32[(at.x >> 2) + bad]} in silu(gate) · up` : given >= 0 || inputNorm === undefined ? `${x[bad]}` : `${f32[(at.x >> 2) + bad]} after the input norm`;
          throw new InvalidArgumentError({ caller, argument: 'x', expected: 'finite values only (int8 quantization scales each row by its largest magnitude)', received: `${value} at flat index ${bad}`, hint: 'Replace or mask the non-finite values first.' });
        }
      }
    }
    const packed = kept !== undefined && !kept.fresh && weightKey?.frozen === true; // a frozen weight's kept panel and scales: they cannot have changed
    if (!packed) i8.set(b, at.b);
    if (!packed) f32.set(colScales, at.colScale >> 2);
    if (bias !== undefined) f32.set(bias, at.bias >> 2);
    if (kept === undefined) {
      kernel.int8_gemm_pack_b(at.b, rows, cols, depth, at.scratch); // into the scratch, after A's panel
    } else if (packed || (!kept.fresh && kernel.bytes_equal(kept.entry.source, at.b, b.length) === 1)) {
      // the same bytes as when its panel was packed: nothing to do (a mutated Int8Weight is packed again below)
    } else if (weightKey?.frozen === true) { // its bytes cannot change: the panel and the scales alone are kept, packed from this call's copy
      kernel.int8_gemm_pack_b_to(at.b, cols, depth, kept.entry.panels);
      f32.set(colScales, kept.entry.scales >> 2);
      kept.commit();
    } else {
      i8.copyWithin(kept.entry.source, at.b, at.b + b.length);
      kernel.int8_gemm_pack_b_to(kept.entry.source, cols, depth, kept.entry.panels);
      kept.commit();
    }
    const colScale = packed ? kept.entry.scales : at.colScale;
    i32.fill(0, job, job + JOB_BYTES / 4);
    i32[job] = rows, i32[job + 1] = cols, i32[job + 2] = depth, i32[job + 3] = at.rowScale, i32[job + 4] = colScale, i32[job + 5] = bias === undefined ? 0 : at.bias;
    i32[job + 6] = activation === undefined ? 0 : ACTIVATIONS[activation], i32[job + 7] = at.out, i32[job + 8] = at.scratch, i32[job + 10] = at.residual, i32[job + 11] = at.gamma, i32[job + 12] = at.beta;
    i32[job + 14] = kept === undefined ? 0 : kept.entry.panels;
    if (residual !== undefined) f32.set(residual, at.residual >> 2);
    if (residualLayerNorm !== undefined) {
      f32.set(residualLayerNorm.residual, at.residual >> 2);
      f32.set(residualLayerNorm.gamma, at.gamma >> 2);
      f32.set(residualLayerNorm.beta, at.beta >> 2);
      f32[job + 13] = residualLayerNorm.epsilon; // gemm_job.eps
    }
    instance.run(at.job, rows * cols * depth); // the column shares of the packed product, on every thread (one, for a small product)
    if (residualLayerNorm !== undefined) {
      i32[job + 9] = 1; // gemm_job.phase: the rows' residual LayerNorm, once every column is done
      instance.run(at.job, rows * cols * depth);
    }
    if (residual !== undefined) {
      i32[job + 9] = 3; // gemm_job.phase: out += residual by rows, once every column is done
      instance.run(at.job, rows * cols);
    }
    if (key !== undefined) Object.assign(this.#packed, { key, rows, depth, scratch: at.scratch });
    const view = f32.subarray(at.out >> 2, (at.out >> 2) + rows * cols);
    return inPlace ? view : view.slice();
  }

  /** Views of the whole of `memory` (made again when it has grown). */
  #views(memory: WebAssembly.Memory): { readonly i8: Int8Array; readonly i32: Int32Array; readonly f32: Float32Array } {
    const buffer = memory.buffer;
    if (this.#memoryViews === undefined || this.#memoryViews.i8.buffer !== buffer || this.#memoryViews.i8.byteLength !== buffer.byteLength) {
      this.#memoryViews = { i8: new Int8Array(buffer), i32: new Int32Array(buffer), f32: new Float32Array(buffer) };
    }
    return this.#memoryViews;
  }

  /**
   * The kept weight for `weightKey` with this shape (`fresh`: just placed, not packed yet), placing
   * it at the end of the kept region; undefined when it cannot be kept (another shape under the
   * same key, or beyond the budget): then it is packed for this call only.
   */
  #keptWeight(weightKey: { readonly key: number; readonly owner: object; readonly frozen?: boolean }, { cols, depth }: Int8GemmShape, caller: string): KeptWeightUse | undefined {
    const instance = this.#load();
    const found = this.#kept.get(weightKey.key);
    if (found !== undefined) return found.rows === cols && found.depth === depth ? { entry: found, fresh: false, commit: () => {} } : undefined;
    const panels = weightKey.frozen === true ? 0 : Math.ceil((cols * depth) / 16) * 16; // a copy of the source bytes, to compare before each use (none for a frozen weight)
    const panelBytes = Math.ceil(instance.exports.packed_b_bytes(cols, depth) / 16) * 16;
    const bytes = panels + panelBytes + 4 * cols;
    const source = this.#kept.reserve(bytes);
    if (source === undefined) return undefined;
    const entry: KeptInt8Weight = { source, panels: source + panels, scales: source + panels + panelBytes, bytes, rows: cols, depth };
    growKernelMemory(instance.memory, source + bytes, { caller, what: `the kept panel of an int8 [${cols}, ${depth}] weight`, kernel: this.name });
    const commit = () => this.#kept.commit(weightKey.key, weightKey.owner, entry); // once its panel is packed: an entry is never seen half-made
    return { entry, fresh: true, commit };
  }

  /**
   * Lays out, 16-byte aligned from the end of the kept weights: the job words (at the base), then what depends on N and
   * K only (x as float, the row scales, A as int8, the packing scratch whose first panel is A),
   * then B, the column scales, the bias and the output; grows the memory to fit.
   */
  #place({ rows, cols, depth }: Int8GemmShape, residual = false, inputNorm = false, start?: number): readonly [GemmInstance, ProductLayout] {
    const instance = this.#load();
    const { exports: kernel, memory } = instance;
    const align = (offset: number) => Math.ceil(offset / 16) * 16;
    const at: ProductLayout = { job: instance.base, x: 0, rowScale: 0, a: 0, scratch: 0, b: 0, colScale: 0, bias: 0, out: 0, residual: 0, gamma: 0, beta: 0, normWeight: 0, normBias: 0, end: 0 };
    at.x = start === undefined ? this.#kept.end : align(start); // start: after another product's operands (gatedMultiply)
    at.rowScale = align(at.x + 4 * rows * depth);
    at.a = align(at.rowScale + 4 * rows);
    at.scratch = align(at.a + rows * depth);
    const scratch = 2 * (Math.ceil(rows / 4) * 4 + Math.ceil(cols / 2) * 2) * (Math.ceil(depth / 16) * 16) + 4 * cols + 64; // ≥ scratch_bytes, in doubles: no int32 overflow
    at.b = align(at.scratch + scratch);
    at.colScale = align(at.b + cols * depth);
    at.bias = align(at.colScale + 4 * cols);
    at.out = align(at.bias + 4 * cols);
    at.end = at.out + 4 * rows * cols;
    if (residual) { // the residual [N, M] (and a residual LayerNorm's gamma and beta [M])
      at.residual = align(at.end);
      at.gamma = align(at.residual + 4 * rows * cols);
      at.beta = align(at.gamma + 4 * cols);
      at.end = at.beta + 4 * cols;
    }
    if (inputNorm) { // the input norm's weight and bias [K]
      at.normWeight = align(at.end);
      at.normBias = align(at.normWeight + 4 * depth);
      at.end = at.normBias + 4 * depth;
    }
    if (kernel.scratch_bytes(rows, cols, depth) > scratch) throw new Error(`attnkit kernels: scratch estimate below scratch_bytes for [${rows}, ${cols}, ${depth}]`); // a bug, never an input error
    growKernelMemory(memory, at.end, { caller: 'int8MatMul', what: `the buffers of an int8 [${rows}, ${depth}] x [${cols}, ${depth}]ᵀ product`, kernel: this.name });
    return [instance, at] as const;
  }

  /** The shared-memory instance where threads are possible, else the module's own. */
  #load(): GemmInstance {
    if (this.#instance !== undefined) return this.#instance;
    const fast = this.fastVariant ? this.#fast : undefined;
    const threaded = fast === undefined ? this.#threaded : fast.threaded;
    const shared = threaded === undefined ? undefined : sharedKernelInstance<GemmExports>(threaded);
    if (shared !== undefined) {
      this.#instance = { exports: shared.exports, memory: shared.memory, base: shared.base, run: (job, work) => shared.run(job, work) };
    } else {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(fast === undefined ? this.#bytes : fast.bytes)).exports as unknown as GemmExports & { readonly memory: WebAssembly.Memory };
      this.#instance = { exports, memory: exports.memory, base: Math.ceil(exports.heap_base() / 16) * 16, run: (job) => exports.run_part(job, 0, 1) };
    }
    this.#kept.restart(this.#instance.base + JOB_BYTES); // nothing kept yet, right after the job words
    return this.#instance;
  }
}
