import { engine, tensor, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkOptionKeys, checkTensor, formatShape, InvalidArgumentError } from '@attnkit/errors';
import type { FusedAttentionLayout, FusedAttentionProblem } from './fused-attention-problem.js';
import { backendValues } from './backend-values.js';
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
  const scale = options.scale ?? (headDim === 0 ? 1 : Math.sqrt(1 / headDim));
  if (typeof scale !== 'number' || !Number.isFinite(scale)) {
    throw new InvalidArgumentError({ caller, argument: 'scale', expected: 'a finite number', received: String(scale) });
  }
  const kernel = fusedAttentionKernel(options.kernel, caller);
  if (engine().isTapeOn()) {
    throw new InferenceOnlyError({ caller, hint: 'Split the heads and use scaledDotProductAttention from @attnkit/attention when training.' });
  }
  const outShape = [batch, length, width]; // [B, T, E]
  if (batch * length * width === 0) return zeros(outShape);
  const values = backendValues(qkv, Float32Array); // on tfjs-wasm a view of its heap, copied once into the kernel's memory
  const rows = { batch: length * width3, heads: headDim, rows: width3 }; // [B, T, 3, H, D]: a token's row is 3E wide
  const layout: FusedAttentionLayout = {
    query: { offset: 0, ...rows },
    key: { offset: width, ...rows },
    value: { offset: 2 * width, ...rows },
    out: { offset: 0, batch: length * width, heads: headDim, rows: width }, // [B, T, H, D]
  };
  const problem: FusedAttentionProblem = {
    batch, heads: numHeads, queryLength: length, keyLength: length, headDim, valueDim: headDim, scale,
    query: values, key: values, value: values, layout,
    mask: mask === undefined ? undefined : broadcastRows(mask, backendValues(mask, Uint8Array), target, (n) => new Uint8Array(n)),
    bias: bias === undefined ? undefined : broadcastRows(bias, backendValues(bias, Float32Array), target, (n) => new Float32Array(n)),
  };
  const out = kernel instanceof WasmFusedAttention && kernelRoute('fusedAttention').inPlace ? kernel.runInPlace(problem) : kernel.run(problem);
  return tensor(out, outShape, 'float32');
}
