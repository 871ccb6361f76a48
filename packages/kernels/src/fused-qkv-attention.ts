import { engine, tensor, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import type { FusedAttentionLayout, FusedAttentionProblem } from './fused-attention-problem.js';
import { backendValues, residentOnWasm } from './backend-values.js';
import { broadcastRows, checkBroadcast, type FusedAttentionOptions } from './fused-attention.js';
import { fusedAttentionKernel } from './fused-attention-kernels.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { kernelRoute } from './kernel-route.js';
import { WasmFusedAttention } from './wasm-fused-attention.js';

/** Options of {@link fusedQkvAttention}: those of `fusedAttention` (mask and bias over `[B, H, T, T]`). */
export type FusedQkvAttentionOptions = FusedAttentionOptions;

const OPTION_KEYS = ['mask', 'bias', 'scale', 'kernel'] as const;

/**
 * Self-attention straight from a fused query/key/value projection, in the token-major layout the
 * projection writes: `qkv [B, T, 3·E]` holds each token's query, key and value, each `E = H·D`
 * wide as `[H, D]`, and the output `[B, T, E]` is each token's heads side by side — what
 * `mergeHeads(fusedAttention(splitHeads(q), splitHeads(k), splitHeads(v)))` gives, bit for bit,
 * without the four transposes or the three split tensors: the kernel reads the heads where they
 * lie (strides) and writes them where `mergeHeads` would put them.
 *
 * The same kernel and numbers as `fusedAttention` (masked softmax, `scale` default `√(1 / D)`,
 * threads by (batch, head)), the same CPU-side contract (`dataSync` in, a new tensor out; meant for
 * cpu and wasm) and inference only (`InferenceOnlyError` while a gradient is recorded).
 *
 * Shapes: `qkv [B, T, 3·H·D]` float32, `numHeads` H; `mask` bool and `bias` float32
 * `[B|1, H|1, T|1, T|1]` → `[B, T, H·D]` float32.
 *
 * @example
 * const qkv = int8MatMul(hidden, qkvWeight, qkvBias);               // [B, T, 3E]
 * const context = fusedQkvAttention(qkv, 12, { mask: padding });   // [B, T, E]; padding: bool [B, 1, 1, T]
 */
export function fusedQkvAttention(qkv: Tensor, numHeads: number, options: FusedQkvAttentionOptions = {}): Tensor {
  const caller = 'fusedQkvAttention';
  checkOptionKeys(options, OPTION_KEYS, caller);
  checkTensor(qkv, { caller, argument: 'qkv', dtype: 'float32', rank: 3, shape: '[B, T, 3·H·D]' });
  checkInteger(numHeads, { caller, argument: 'numHeads', min: 1 });
  const [batch, length, width3] = qkv.shape as [number, number, number];
  if (width3 % (3 * numHeads) !== 0) {
    throw new InvalidArgumentError({ caller, argument: 'qkv', expected: `a last dimension 3·H·D divisible by 3 · numHeads = ${3 * numHeads}`, received: formatShape(qkv.shape) });
  }
  const width = width3 / 3;
  const headDim = width / numHeads;
  const target = [batch, numHeads, length, length];
  const mask = checkBroadcast(options.mask, target, caller, 'mask');
  const bias = checkBroadcast(options.bias, target, caller, 'bias');
  const scale = checkScale(options.scale, headDim, caller);
  const rows = { batch: length * width3, heads: headDim, rows: width3 }; // [B, T, 3, H, D]: a token's row is 3E wide
  return attendTokenRows(caller, { qkv }, { batch, heads: numHeads, queryLength: length, keyLength: length, headDim, valueDim: headDim, scale }, {
    query: { offset: 0, ...rows },
    key: { offset: width, ...rows },
    value: { offset: 2 * width, ...rows },
    out: { offset: 0, batch: length * width, heads: headDim, rows: width }, // [B, T, H, D]
  }, mask, bias, options.kernel);
}

/**
 * Self- or cross-attention on the rows of tokens the projections write: `query [B, T, H·D]`,
 * `key [B, S, H·D]`, `value [B, S, H·Dv]`, each token's heads side by side, → `[B, T, H·Dv]` — what
 * `mergeHeads(fusedAttention(splitHeads(query), splitHeads(key), splitHeads(value)))` gives, bit
 * for bit, without the four transposes: the kernel reads the heads where they lie and writes them
 * where `mergeHeads` would put them. The same kernel, numbers and contract as `fusedAttention`
 * (inference only; cpu and wasm).
 *
 * Shapes: `query [B, T, H·D]`, `key [B, S, H·D]`, `value [B, S, H·Dv]` float32, `numHeads` H;
 * `mask` bool and `bias` float32 `[B|1, H|1, T|1, S|1]` → `[B, T, H·Dv]` float32.
 *
 * @example
 * const context = fusedAttentionTokens(query.forward(x), key.forward(x), value.forward(x), 12, { mask: padding }); // [B, T, E]
 */
export function fusedAttentionTokens(query: Tensor, key: Tensor, value: Tensor, numHeads: number, options: FusedQkvAttentionOptions = {}): Tensor {
  const caller = 'fusedAttentionTokens';
  checkOptionKeys(options, OPTION_KEYS, caller);
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 3, shape: '[B, T, H·D]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 3, shape: '[B, S, H·D]' });
  checkTensor(value, { caller, argument: 'value', dtype: 'float32', rank: 3, shape: '[B, S, H·Dv]' });
  checkInteger(numHeads, { caller, argument: 'numHeads', min: 1 });
  const [batch, queryLength, width] = query.shape as [number, number, number];
  const [keyLength, valueWidth] = [key.shape[1] as number, value.shape[2] as number];
  if (width % numHeads !== 0) throw new InvalidArgumentError({ caller, argument: 'query', expected: `a last dimension H·D divisible by numHeads = ${numHeads}`, received: formatShape(query.shape) });
  if (key.shape[0] !== batch || key.shape[2] !== width) throw new InvalidArgumentError({ caller, argument: 'key', expected: `[B, S, H·D] with B, H·D = ${batch}, ${width} (from 'query')`, received: formatShape(key.shape) });
  if (value.shape[0] !== batch || value.shape[1] !== keyLength || valueWidth % numHeads !== 0) throw new InvalidArgumentError({ caller, argument: 'value', expected: `[B, S, H·Dv] with B, S = ${batch}, ${keyLength} (from 'query' and 'key') and H·Dv divisible by numHeads = ${numHeads}`, received: formatShape(value.shape) });
  const [headDim, valueDim] = [width / numHeads, valueWidth / numHeads];
  const target = [batch, numHeads, queryLength, keyLength];
  const mask = checkBroadcast(options.mask, target, caller, 'mask');
  const bias = checkBroadcast(options.bias, target, caller, 'bias');
  const scale = checkScale(options.scale, headDim, caller);
  const rows = (length: number, w: number) => ({ offset: 0, batch: length * w, heads: w / numHeads, rows: w }); // [B, N, H, W / H]
  return attendTokenRows(caller, { query, key, value }, { batch, heads: numHeads, queryLength, keyLength, headDim, valueDim, scale }, {
    query: rows(queryLength, width), key: rows(keyLength, width), value: rows(keyLength, valueWidth), out: rows(queryLength, valueWidth),
  }, mask, bias, options.kernel);
}

function checkScale(given: number | undefined, headDim: number, caller: string): number {
  const scale = given === undefined ? (headDim === 0 ? 1 : Math.sqrt(1 / headDim)) : given; // null is no number: refused, as a null mask is
  if (typeof scale !== 'number' || !Number.isFinite(scale)) throw new InvalidArgumentError({ caller, argument: 'scale', expected: 'a finite number', received: typeof scale === 'number' ? String(scale) : describeValue(scale) });
  return scale;
}

type Sizes = Pick<FusedAttentionProblem, 'batch' | 'heads' | 'queryLength' | 'keyLength' | 'headDim' | 'valueDim' | 'scale'>;

/** Runs the kernel on operands in token-major layouts (one fused array, or three): `[B, T, H·Dv]`. */
function attendTokenRows(caller: string, operands: { qkv: Tensor } | { query: Tensor; key: Tensor; value: Tensor }, sizes: Sizes, layout: FusedAttentionLayout, mask: Tensor | undefined, bias: Tensor | undefined, kernelName: FusedQkvAttentionOptions['kernel']): Tensor {
  const { batch, heads, queryLength, keyLength, valueDim } = sizes;
  const kernel = fusedAttentionKernel(kernelName, caller);
  if (engine().isTapeOn()) {
    throw new InferenceOnlyError({ caller, hint: 'Split the heads and use scaledDotProductAttention from @attnkit/attention when training.' });
  }
  const outShape = [batch, queryLength, heads * valueDim]; // [B, T, H·Dv]
  if (batch * queryLength * heads * valueDim === 0) return zeros(outShape);
  residentOnWasm(['qkv' in operands ? operands.qkv : operands.query, ...('qkv' in operands ? [] : [operands.key, operands.value]), mask, bias]); // before any view: a move may grow the heap
  // on tfjs-wasm views of its heap, copied once into the kernel's memory (one fused array: once for all three)
  const [query, key, value] = 'qkv' in operands
    ? Array<Float32Array>(3).fill(backendValues(operands.qkv, Float32Array))
    : [backendValues(operands.query, Float32Array), backendValues(operands.key, Float32Array), backendValues(operands.value, Float32Array)];
  const target = [batch, heads, queryLength, keyLength];
  const problem: FusedAttentionProblem = {
    ...sizes, query: query as Float32Array, key: key as Float32Array, value: value as Float32Array, layout,
    mask: mask === undefined ? undefined : broadcastRows(mask, backendValues(mask, Uint8Array), target, (n) => new Uint8Array(n)),
    bias: bias === undefined ? undefined : broadcastRows(bias, backendValues(bias, Float32Array), target, (n) => new Float32Array(n)),
  };
  const out = kernel instanceof WasmFusedAttention && kernelRoute('fusedAttention').inPlace ? kernel.runInPlace(problem) : kernel.run(problem);
  return tensor(out, outShape, 'float32');
}
