import { ResourceLimitError } from '@attnkit/errors';
import { decodeBase64 } from './decode-base64.js';
import { MAX_KERNEL_CHUNKS, sharedKernelInstance } from './kernel-threads.js';
import { headMajorLayout, type FusedAttentionKernel, type FusedAttentionProblem } from './fused-attention-problem.js';

/** What csrc/fused-attention.c exports. Pointers are byte offsets in `memory`; 0 = absent. */
interface FusedAttentionExports {
  heap_base(): number;
  run_part(job: number, part: number, parts: number): void;
  scratch_bytes(keyLength: number, headDim: number): number;
  fused_attention(
    q: number, k: number, v: number, out: number,
    batch: number, heads: number, queryLength: number, keyLength: number, headDim: number, valueDim: number, scale: number,
    mask: number, maskB: number, maskH: number, maskT: number,
    bias: number, biasB: number, biasH: number, biasT: number,
    scratch: number,
  ): void;
}

/** An instance of the module with where its operands may start and how a job runs (on threads or not). */
interface AttentionInstance {
  readonly exports: FusedAttentionExports;
  readonly memory: WebAssembly.Memory;
  readonly base: number;
  /** Most parts a job may be split into (each needs its own scratch). */
  readonly maxParts: number;
  run(job: number, work?: number): void;
}

const JOB_BYTES = 144; // csrc/fused-attention.c attention_job: 33 words, rounded up
const PAGE = 65536;
const MAX_BYTES = 2 ** 31; // the C kernel indexes with int32 offsets within a head, and wasm32 addresses 4 GiB at most

/**
 * The fused attention WebAssembly module (csrc/fused-attention.c, built by scripts/build-wasm.mjs),
 * driven from JavaScript: the operands are copied into the module's own memory (grown as needed,
 * never shrunk), the kernel runs, the output is returned as a view of that memory
 * ({@link runInPlace}) or a copy ({@link run}). Compiled on first use.
 *
 * @example
 * const kernel = new WasmFusedAttention(FUSED_ATTENTION_WASM);
 * if (kernel.supported) kernel.run(problem); // Float32Array [B, H, T, Dv]
 */
export class WasmFusedAttention implements FusedAttentionKernel {
  readonly name = 'simd' as const;
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #supported: boolean | undefined;
  #instance: AttentionInstance | undefined;

  constructor(base64: string) {
    this.#bytes = decodeBase64(base64);
  }

  /** Whether this engine validates the module (wasm SIMD128). */
  get supported(): boolean {
    this.#supported ??= typeof WebAssembly === 'object' && WebAssembly.validate(this.#bytes);
    return this.#supported;
  }

  run(problem: FusedAttentionProblem): Float32Array {
    return this.runInPlace(problem).slice();
  }

  /**
   * The output as a view of the module's memory: valid until the next call (copy it, or hand it to
   * something that copies, such as a tfjs-wasm upload).
   */
  runInPlace(problem: FusedAttentionProblem): Float32Array {
    const { batch, heads, queryLength, keyLength, headDim, valueDim, query, key, value, mask, bias } = problem;
    const outLength = batch * heads * queryLength * valueDim;
    const instance = this.#load();
    const { memory } = instance;
    const align = (offset: number) => Math.ceil(offset / 16) * 16;
    const at = { job: instance.base, q: instance.base + JOB_BYTES, k: 0, v: 0, out: 0, mask: 0, bias: 0, scratch: 0 };
    const shared = key === query && value === query; // one fused projection [B, T, 3, H, D]: copied once
    at.k = shared ? at.q : align(at.q + 4 * query.length);
    at.v = shared ? at.q : align(at.k + 4 * key.length);
    at.out = align(at.v + 4 * value.length); // shared: at.q + the one array
    at.mask = align(at.out + 4 * outLength);
    at.bias = align(at.mask + (mask?.values.length ?? 0));
    at.scratch = align(at.bias + 4 * (bias?.values.length ?? 0));
    const stride = align(4 * (headDim + 4) * (Math.ceil(keyLength / 8) * 8) + 16 * headDim + 64); // ≥ scratch_bytes, in doubles: no int32 overflow
    const end = at.scratch + stride * instance.maxParts; // one scratch per part
    const what = `the buffers of a fused attention [B, H, T, S, D] = [${batch}, ${heads}, ${queryLength}, ${keyLength}, ${headDim}]`;
    if (end > MAX_BYTES) {
      throw new ResourceLimitError({ caller: 'fusedAttention', what, backend: 'the simd kernel', bytes: end, limit: MAX_BYTES, rule: 'the kernel addresses at most 2 GiB', hint: 'Split the batch into smaller ones.' });
    }
    const missing = end - memory.buffer.byteLength;
    if (missing > 0) {
      try {
        memory.grow(Math.ceil(missing / PAGE));
      } catch (cause) {
        throw new ResourceLimitError({ caller: 'fusedAttention', what, backend: 'the simd kernel', bytes: end, limit: memory.buffer.byteLength, rule: `the engine refused to grow the module's memory: ${String(cause)}`, hint: 'Split the batch into smaller ones.' });
      }
    }
    const buffer = memory.buffer;
    new Float32Array(buffer, at.q, query.length).set(query);
    if (!shared) {
      new Float32Array(buffer, at.k, key.length).set(key);
      new Float32Array(buffer, at.v, value.length).set(value);
    }
    if (mask !== undefined) new Uint8Array(buffer, at.mask, mask.values.length).set(mask.values);
    if (bias !== undefined) new Float32Array(buffer, at.bias, bias.values.length).set(bias.values);
    const [mb, mh, mt] = mask?.strides ?? [0, 0, 0];
    const [bb, bh, bt] = bias?.strides ?? [0, 0, 0];
    const layout = problem.layout ?? { query: headMajorLayout(heads, queryLength, headDim), key: headMajorLayout(heads, keyLength, headDim), value: headMajorLayout(heads, keyLength, valueDim), out: headMajorLayout(heads, queryLength, valueDim) };
    const { query: lq, key: lk, value: lv, out: lo } = layout;
    const words = new Int32Array(buffer, at.job, 33);
    words.set([at.q + 4 * lq.offset, at.k + 4 * lk.offset, at.v + 4 * lv.offset, at.out + 4 * lo.offset, batch, heads, queryLength, keyLength, headDim, valueDim, 0, mask === undefined ? 0 : at.mask, mb, mh, mt, bias === undefined ? 0 : at.bias, bb, bh, bt, at.scratch, stride,
      lq.batch, lq.heads, lq.rows, lk.batch, lk.heads, lk.rows, lv.batch, lv.heads, lv.rows, lo.batch, lo.heads, lo.rows]);
    new Float32Array(buffer, at.job + 40, 1)[0] = problem.scale; // attention_job.scale
    instance.run(at.job, batch * heads * queryLength * keyLength * (headDim + valueDim)); // the heads, shared among the threads (one, for a small problem)
    return new Float32Array(memory.buffer, at.out, outLength);
  }

  /** The shared-memory instance where threads are possible, else the module's own. */
  #load(): AttentionInstance {
    if (this.#instance !== undefined) return this.#instance;
    const shared = sharedKernelInstance<FusedAttentionExports>('fused-attention');
    if (shared !== undefined) {
      this.#instance = { exports: shared.exports, memory: shared.memory, base: shared.base, maxParts: MAX_KERNEL_CHUNKS, run: (job, work) => shared.run(job, work) };
    } else {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(this.#bytes)).exports as unknown as FusedAttentionExports & { readonly memory: WebAssembly.Memory };
      this.#instance = { exports, memory: exports.memory, base: Math.ceil(exports.heap_base() / 16) * 16, maxParts: 1, run: (job) => exports.run_part(job, 0, 1) };
    }
    return this.#instance;
  }
}
