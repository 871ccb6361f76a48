import type { KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, formatShape } from '@attnkit/errors';
import { inferenceOnlyGradient } from './inference-only-gradient.js';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { allocateAttentionRows, runAttentionRows } from './run-attention-rows.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's decoding-step attention on tfjs-wasm's own memory: one new position (T = 1)
 * per sequence, from the projections as they come out of a product to the attended heads, in one
 * kernel instead of the ~10 tfjs kernels of the composed path (split, rotary of q and k, the two cache
 * appends, the head regrouping and reshapes, the attention rows).
 *
 * Inputs: `query [B, 1, Wq]`, `key [B, 1, Wk]`, `value [B, 1, Wv]` (the same tensor may be given for
 * all three: a fused q/k/v product), whose heads start at the columns `queryAt` (H heads of D),
 * `keyAt` and `valueAt` (Hkv heads of D and Dv); `cacheKey [B, Hkv, C, D]`, `cacheValue [B, Hkv, C, Dv]`
 * (a `KvCache` layer, its first `length` positions set); optional `cos`, `sin` `[B, 1, R]` (R even, ≤ D:
 * rotary position embeddings of q and k, transformers' rotate_half convention), bool `mask
 * [B|1, 1, 1, length + 1]` (true = may attend), and `queryNorm`, `keyNorm` `[D]` (together, with the
 * attribute `normEpsilon`: Qwen3's per-head RMSNorm of q and k over D, before rotary). Attributes
 * `heads` (H, a multiple of Hkv), `queryAt`, `keyAt`, `valueAt`, `length`, `capacity` (C' ≥ length + 1)
 * and `scale`.
 *
 * Outputs: `[output [B, 1, H·Dv], key [B, Hkv, C', D], value [B, Hkv, C', Dv]]`: the attended heads,
 * merged, and the layer's keys and values with the step's row at position `length` (positions after
 * it unset). The caches are written in place as `KV_APPEND_KERNEL` writes them: when C' = C and no
 * other tensor shares a cache's data, the output takes over its memory and the input no longer has
 * data (dispose it at once). The numbers are those of the composed path, bit for bit: the same C
 * pieces (`rms-norm.h`, `rotary.h`, `attention-rows.h`) in the same order.
 *
 * @example
 * const [output, key, value] = engine().runKernel(DECODE_ATTENTION_KERNEL,
 *   { query: qkv, key: qkv, value: qkv, cacheKey, cacheValue, cos, sin, mask },
 *   { heads: 9, queryAt: 0, keyAt: 576, valueAt: 768, length: 40, capacity: 64, scale: 0.125 }) as Tensor[];
 * // qkv [1, 1, 960], caches [1, 3, 64, 64] -> output [1, 1, 576]
 */
export const DECODE_ATTENTION_KERNEL = 'AttnkitDecodeAttention';

interface DecodeAttentionInputs {
  readonly query: TensorInfo;
  readonly key: TensorInfo;
  readonly value: TensorInfo;
  readonly cacheKey: TensorInfo;
  readonly cacheValue: TensorInfo;
  readonly cos?: TensorInfo;
  readonly sin?: TensorInfo;
  readonly mask?: TensorInfo;
  readonly queryNorm?: TensorInfo;
  readonly keyNorm?: TensorInfo;
}

interface DecodeAttentionAttrs {
  readonly heads: number;
  readonly queryAt: number;
  readonly keyAt: number;
  readonly valueAt: number;
  readonly length: number;
  readonly capacity: number;
  readonly scale: number;
  readonly normEpsilon?: number;
}

const isCount = (n: unknown, min: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min;

/** Checks the inputs and attributes; returns B, H, Hkv, D, Dv, R, S. */
function checkDecodeAttention(inputs: DecodeAttentionInputs, attrs: DecodeAttentionAttrs) {
  const caller = DECODE_ATTENTION_KERNEL;
  const { query, key, value, cacheKey, cacheValue, cos, sin, mask, queryNorm, keyNorm } = inputs;
  const { heads, queryAt, keyAt, valueAt, length, capacity, scale, normEpsilon } = attrs;
  for (const [name, t] of [['query', query], ['key', key], ['value', value]] as const) {
    if (t.dtype !== 'float32' || t.shape.length !== 3 || t.shape[1] !== 1 || t.shape[0] !== query.shape[0]) {
      throw new InvalidArgumentError({ caller, argument: name, expected: `float32 [B, 1, W] (one new position per sequence) with B = ${query.shape[0]}`, received: `${t.dtype} ${formatShape(t.shape)}` });
    }
  }
  const batch = query.shape[0] as number;
  const [kvHeads, stored, dim] = cacheKey.shape.slice(1) as [number, number, number];
  const valueDim = cacheValue.shape[3] as number;
  if (cacheKey.dtype !== 'float32' || cacheKey.shape.length !== 4 || cacheKey.shape[0] !== batch || !(kvHeads >= 1) || !(dim >= 1)) {
    throw new InvalidArgumentError({ caller, argument: 'cacheKey', expected: `float32 [B, Hkv, C, D] with B = ${batch}`, received: `${cacheKey.dtype} ${formatShape(cacheKey.shape)}` });
  }
  if (cacheValue.dtype !== 'float32' || cacheValue.shape.length !== 4 || cacheValue.shape[0] !== batch || cacheValue.shape[1] !== kvHeads || cacheValue.shape[2] !== stored || !(valueDim >= 1)) {
    throw new InvalidArgumentError({ caller, argument: 'cacheValue', expected: `float32 [B, Hkv, C, Dv] = [${batch}, ${kvHeads}, ${stored}, Dv] (as cacheKey)`, received: `${cacheValue.dtype} ${formatShape(cacheValue.shape)}` });
  }
  if (!isCount(heads, 1) || heads % kvHeads !== 0) {
    throw new InvalidArgumentError({ caller, argument: 'heads', expected: `a positive multiple of the caches' Hkv = ${kvHeads}`, received: String(heads) });
  }
  const fits = (at: unknown, width: number, t: TensorInfo) => isCount(at, 0) && at + width <= (t.shape[2] as number);
  if (!fits(queryAt, heads * dim, query)) throw new InvalidArgumentError({ caller, argument: 'queryAt', expected: `a column from which H·D = ${heads * dim} fit in query's ${query.shape[2]}`, received: String(queryAt) });
  if (!fits(keyAt, kvHeads * dim, key)) throw new InvalidArgumentError({ caller, argument: 'keyAt', expected: `a column from which Hkv·D = ${kvHeads * dim} fit in key's ${key.shape[2]}`, received: String(keyAt) });
  if (!fits(valueAt, kvHeads * valueDim, value)) throw new InvalidArgumentError({ caller, argument: 'valueAt', expected: `a column from which Hkv·Dv = ${kvHeads * valueDim} fit in value's ${value.shape[2]}`, received: String(valueAt) });
  if (!isCount(length, 0) || length > stored || !isCount(capacity, length + 1)) {
    throw new InvalidArgumentError({ caller, argument: 'attrs', expected: `integers 0 ≤ length ≤ ${stored} (the caches' positions) and capacity ≥ length + 1`, received: `length=${length}, capacity=${capacity}` });
  }
  if (typeof scale !== 'number' || !Number.isFinite(scale)) throw new InvalidArgumentError({ caller, argument: 'scale', expected: 'a finite number', received: String(scale) });
  let rotary = 0;
  if (cos !== undefined || sin !== undefined) {
    rotary = cos?.shape[2] as number;
    const ok = (t: TensorInfo | undefined) => t !== undefined && t.dtype === 'float32' && t.shape.length === 3 && t.shape[0] === batch && t.shape[1] === 1 && t.shape[2] === rotary;
    if (!ok(cos) || !ok(sin) || !(rotary >= 2) || rotary % 2 !== 0 || rotary > dim) {
      throw new InvalidArgumentError({ caller, argument: 'cos', expected: `cos and sin both float32 [B, 1, R] with B = ${batch}, R even and ≤ D = ${dim}`, received: `cos ${cos === undefined ? 'absent' : formatShape(cos.shape)}, sin ${sin === undefined ? 'absent' : formatShape(sin.shape)}` });
    }
  }
  const keyLength = length + 1;
  if (mask !== undefined && (mask.dtype !== 'bool' || mask.shape.length !== 4 || (mask.shape[0] !== 1 && mask.shape[0] !== batch) || mask.shape[1] !== 1 || mask.shape[2] !== 1 || mask.shape[3] !== keyLength)) {
    throw new InvalidArgumentError({ caller, argument: 'mask', expected: `bool [B|1, 1, 1, S] with B = ${batch}, S = length + 1 = ${keyLength}`, received: `${mask.dtype} ${formatShape(mask.shape)}` });
  }
  const normed = queryNorm !== undefined || keyNorm !== undefined;
  if (normed) {
    const ok = (t: TensorInfo | undefined) => t !== undefined && t.dtype === 'float32' && t.shape.length === 1 && t.shape[0] === dim;
    if (!ok(queryNorm) || !ok(keyNorm)) {
      throw new InvalidArgumentError({ caller, argument: 'queryNorm', expected: `queryNorm and keyNorm both float32 [D] with D = ${dim}`, received: `queryNorm ${queryNorm === undefined ? 'absent' : `${queryNorm.dtype} ${formatShape(queryNorm.shape)}`}, keyNorm ${keyNorm === undefined ? 'absent' : `${keyNorm.dtype} ${formatShape(keyNorm.shape)}`}` });
    }
    if (typeof normEpsilon !== 'number' || !(normEpsilon > 0) || !Number.isFinite(normEpsilon)) {
      throw new InvalidArgumentError({ caller, argument: 'normEpsilon', expected: 'a finite number > 0 (the q/k norms\' eps)', received: String(normEpsilon) });
    }
  }
  return { batch, kvHeads, stored, dim, valueDim, rotary, keyLength, normed };
}

/**
 * Registers {@link DECODE_ATTENTION_KERNEL} on wasm (`csrc/rotary.h`, `csrc/attention-rows.h`). Where
 * WebAssembly SIMD is missing nothing is registered.
 *
 * @returns `[DECODE_ATTENTION_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmDecodeAttention(); // after tf.setBackend('wasm')
 */
export function fillWasmDecodeAttention(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const inputs = args.inputs as unknown as DecodeAttentionInputs;
    const attrs = args.attrs as unknown as DecodeAttentionAttrs;
    const { batch, kvHeads, stored, dim, valueDim, rotary, keyLength, normed } = checkDecodeAttention(inputs, attrs);
    const { query, key, value, cacheKey, cacheValue, cos, sin, mask, queryNorm, keyNorm } = inputs;
    const { heads, queryAt, keyAt, valueAt, length, capacity, scale, normEpsilon } = attrs;
    const backend = wasmInternals(args.backend)!;
    const fills = simdKernelsOn(backend)!;
    const offset = (t: TensorInfo | undefined) => (t === undefined ? 0 : heapOffset(backend, t));
    // first: reading an offset moves a tensor held by another backend in, which may grow the heap
    const [q, k, v, fromKey, fromValue, c, s, m, qn, kn] = [query, key, value, cacheKey, cacheValue, cos, sin, mask, queryNorm, keyNorm].map(offset) as [number, number, number, number, number, number, number, number, number, number];
    const shared = new Set([query.dataId, key.dataId, value.dataId]);
    const writable = (cache: TensorInfo) => capacity === stored && !shared.has(cache.dataId) && cacheKey.dataId !== cacheValue.dataId && backend.refCount(cache.dataId) === 1;
    const [keyInPlace, valueInPlace] = [writable(cacheKey), writable(cacheValue)];
    const output = backend.makeOutput([batch, 1, heads * valueDim], 'float32');
    const rotated = backend.makeOutput([batch * heads * dim + (normed ? (heads + 1) * dim : 0)], 'float32'); // the step's query heads [B, H, 1, D], rotated; then one sequence's normed q heads and one normed k head
    const rows = allocateAttentionRows(backend, keyLength, dim); // the attention rows' scratch and words
    const grown = (inPlaceToo: boolean, width: number) => (inPlaceToo ? undefined : backend.makeOutput([batch, kvHeads, capacity, width], 'float32'));
    const [grownKey, grownValue] = [grown(keyInPlace, dim), grown(valueInPlace, valueDim)];
    // last, after every allocation (nothing can fail past this point): a cache's memory taken over by a new tensor
    const takeOver = (cache: TensorInfo, width: number): TensorInfo => {
      const out = backend.makeOutput([batch, kvHeads, capacity, width], 'float32', heapOffset(backend, cache));
      backend.wasm.tfjs.disposeData((cache.dataId as { id: number }).id); // the input no longer owns it (unregistered, not freed)
      backend.dataIdMap.delete(cache.dataId);
      return out;
    };
    const keys = { out: grownKey ?? takeOver(cacheKey, dim), inPlace: keyInPlace };
    const values = { out: grownValue ?? takeOver(cacheValue, valueDim), inPlace: valueInPlace };
    const [toKey, toValue, out, qr] = [keys.out, values.out, output, rotated].map(offset) as [number, number, number, number];
    if (batch === 0) {
      for (const temporary of [rotated, rows.scratch, rows.words]) backend.disposeData(temporary.dataId);
      return [output, keys.out, values.out];
    }
    const heap = backend.wasm.HEAPU8; // after the allocations: they may grow the memory
    const [normedQuery, normedKey] = [qr + 4 * batch * heads * dim, qr + 4 * (batch + 1) * heads * dim]; // past the rotated heads (normed only)
    const [qWidth, kWidth, vWidth] = [query.shape[2], key.shape[2], value.shape[2]] as [number, number, number];
    for (const [cache, to, width, inPlace] of [[fromKey, toKey, dim, keys.inPlace], [fromValue, toValue, valueDim, values.inPlace]] as const) {
      if (inPlace || length === 0) continue;
      for (let pair = 0; pair < batch * kvHeads; pair++) heap.copyWithin(to + 4 * pair * capacity * width, cache + 4 * pair * stored * width, cache + 4 * (pair * stored + length) * width);
    }
    for (let b = 0; b < batch; b++) {
      const [cosRow, sinRow] = [c + 4 * b * rotary, s + 4 * b * rotary];
      let queryRow = q + 4 * (b * qWidth + queryAt);
      if (normed) { // RMSNorm of each head over D (the composed path's RMS_NORM_KERNEL, rows of D), then rotary
        fills.rmsNorm(queryRow, qn, normedQuery, heads, dim, normEpsilon as number);
        queryRow = normedQuery;
      }
      if (rotary > 0) fills.rotaryHeads(queryRow, cosRow, sinRow, qr + 4 * b * heads * dim, 1, 1, heads, dim, rotary);
      else heap.copyWithin(qr + 4 * b * heads * dim, queryRow, queryRow + 4 * heads * dim);
      for (let h = 0; h < kvHeads; h++) {
        const pair = b * kvHeads + h;
        let keyRow = k + 4 * (b * kWidth + keyAt + h * dim);
        if (normed) {
          fills.rmsNorm(keyRow, kn, normedKey, 1, dim, normEpsilon as number);
          keyRow = normedKey;
        }
        const keyTo = toKey + 4 * (pair * capacity + length) * dim;
        if (rotary > 0) fills.rotaryHeads(keyRow, cosRow, sinRow, keyTo, 1, 1, 1, dim, rotary);
        else heap.copyWithin(keyTo, keyRow, keyRow + 4 * dim);
        const valueRow = v + 4 * (b * vWidth + valueAt + h * valueDim);
        heap.copyWithin(toValue + 4 * (pair * capacity + length) * valueDim, valueRow, valueRow + 4 * valueDim);
      }
    }
    const groups = heads / kvHeads; // the query heads of one key/value head: G rows against its keys
    const stride = (size: number, step: number) => (size === 1 ? 0 : step); // 0 along an axis of size 1, as the attention-rows fill sets them
    runAttentionRows(backend, rows, { query: qr, key: toKey, value: toValue, out, mask: mask === undefined ? 0 : m, bias: 0 }, [batch, kvHeads, groups, keyLength, dim, valueDim], [
      stride(batch, kvHeads * groups * dim), stride(kvHeads, groups * dim), stride(groups, dim), // query [B, Hkv, G, D]
      stride(batch, kvHeads * capacity * dim), stride(kvHeads, capacity * dim), stride(capacity, dim), // keys [B, Hkv, C', D]
      stride(batch, kvHeads * capacity * valueDim), stride(kvHeads, capacity * valueDim), stride(capacity, valueDim), // values
      stride(batch, kvHeads * groups * valueDim), stride(kvHeads, groups * valueDim), stride(groups, valueDim), // output [B, Hkv, G, Dv] = [B, 1, H·Dv]
      ...(mask === undefined ? [0, 0, 0] : [stride(mask.shape[0] as number, keyLength), 0, 0]), 0, 0, 0,
    ], scale);
    backend.disposeData(rotated.dataId);
    return [output, keys.out, values.out];
  };
  return registerWasmKernel(DECODE_ATTENTION_KERNEL, kernelFunc, inferenceOnlyGradient(DECODE_ATTENTION_KERNEL));
}
