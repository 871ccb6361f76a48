import { concat, cumsum, fill, fused, gather, matMul, max, mean, ones, prod, tensor1d, tensor3d, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { withBackend } from '@attnkit/backends';
import { MultiHeadAttention, TransformerEncoderLayer, mergeHeads, splitHeads } from '@attnkit/attention';
import { safely, type CatalogueCase } from './catalogue-case.js';

const Z = 'sizes and memory';

/** `fn` on cpu, then on wasm: each result as `shape dtype values` (rounded), or the error it throws. */
async function onCpuAndWasm(fn: () => Tensor): Promise<string[]> {
  const read = (backend: string) => withBackend(backend, async () => {
    try {
      const out = tidy(fn);
      const values = Array.from(await out.data()).map((v) => Math.round(v * 1e5) / 1e5);
      out.dispose();
      return `[${out.shape.join(', ')}] ${out.dtype} ${JSON.stringify(values)}`; // NaN reads as null on both
    } catch (error) {
      return `throws ${(error as Error).name}: ${(error as Error).message}`;
    }
  });
  return [await read('cpu'), await read('wasm')];
}
const same = (v: unknown) => (v as string[])[0] === (v as string[])[1];
/** Equal on both backends, and what cpu gives starts with `start`. */
const sameAs = (start: string) => (v: unknown) => same(v) && (v as string[])[0]!.startsWith(start);

/** `layer` built with seed 1 on the current backend, run by `use`, and disposed. */
function withAttention(use: (mha: MultiHeadAttention) => Tensor): Tensor {
  const mha = new MultiHeadAttention({ embedDim: 4, numHeads: 2, seed: 1 });
  try { return tidy(() => use(mha)); } finally { mha.dispose(); }
}
function withEncoderLayer(x: () => Tensor): Tensor {
  const layer = new TransformerEncoderLayer({ embedDim: 4, numHeads: 2, seed: 1 });
  try { return tidy(() => layer.forward(x()).output); } finally { layer.dispose(); }
}
/** Stale values left in the heap where the next output may land. */
function staleHeap(): void {
  const big = fill([4, 3, 5], 12345.678);
  big.dataSync();
  big.dispose();
}

/**
 * Zero-size tensors through the blocks and the kernels they reach. tfjs-backend-wasm 4.22 threw an
 * untyped `RuntimeError: divide by zero`, returned stale heap memory, or aborted the wasm module;
 * attnkit's zero-size guard makes wasm answer as cpu does.
 */
export const zeroSizeCases: CatalogueCase[] = [
  safely(Z, 'MultiHeadAttention.call with batch 0 ([0, 3, 4]) on cpu and wasm', 'an empty [0, 3, 4] on both (before, on wasm: RuntimeError: divide by zero)', () => onCpuAndWasm(() => withAttention((mha) => mha.call(ones([0, 3, 4])).output)), sameAs('[0, 3, 4] float32 []')),
  safely(Z, 'MultiHeadAttention.call with an empty key and value ([2, 0, 4]) on cpu and wasm', 'equal on both (before, on wasm: Aborted(), and every later call hung)', () => onCpuAndWasm(() => withAttention((mha) => mha.call(ones([2, 3, 4]), ones([2, 0, 4]), ones([2, 0, 4])).output)), same),
  safely(Z, 'MultiHeadAttention.call with query length 0 ([2, 0, 4]) on cpu and wasm', 'an empty [2, 0, 4] on both', () => onCpuAndWasm(() => withAttention((mha) => mha.call(ones([2, 0, 4]), ones([2, 3, 4]), ones([2, 3, 4])).output)), same),
  safely(Z, 'TransformerEncoderLayer.forward with batch 0 ([0, 3, 4]) on cpu and wasm', 'an empty [0, 3, 4] on both (before, on wasm: RuntimeError: divide by zero)', () => onCpuAndWasm(() => withEncoderLayer(() => ones([0, 3, 4]))), sameAs('[0, 3, 4] float32 []')),
  safely(Z, 'TransformerEncoderLayer.forward with length 0 ([2, 0, 4]) on cpu and wasm', 'an empty [2, 0, 4] on both', () => onCpuAndWasm(() => withEncoderLayer(() => ones([2, 0, 4]))), same),
  safely(Z, 'splitHeads of [0, 3, 4] into 2 heads on cpu and wasm', 'an empty [0, 2, 3, 2] on both (before, on wasm: RuntimeError: divide by zero)', () => onCpuAndWasm(() => splitHeads(ones([0, 3, 4]), 2)), sameAs('[0, 2, 3, 2] float32 []')),
  safely(Z, 'mergeHeads of [0, 2, 3, 2] on cpu and wasm', 'an empty [0, 3, 4] on both (before, on wasm: RuntimeError: divide by zero)', () => onCpuAndWasm(() => mergeHeads(ones([0, 2, 3, 2]))), sameAs('[0, 3, 4] float32 []')),
  safely(Z, 'transpose of [0, 3, 4, 2] and mean of [0, 3, 4] along axis 1 on cpu and wasm', 'empty on both (before, on wasm: RuntimeError: divide by zero)', () => onCpuAndWasm(() => mean(transpose(ones([0, 3, 4, 2]), [0, 2, 1, 3]), 1)), sameAs('[0, 4, 2] float32 []')),
  safely(Z, 'matMul [4, 3, 0] × [4, 0, 5] (an empty inner dimension) after a large fill, on cpu and wasm', 'zeros on both, as in PyTorch (before, on wasm: the stale heap values)', () => onCpuAndWasm(() => { staleHeap(); return matMul(ones([4, 3, 0]), ones([4, 0, 5])); }), sameAs(`[4, 3, 5] float32 ${JSON.stringify(new Array(60).fill(0))}`)),
  safely(Z, 'matMul [2, 2, 3, 0] × [2, 2, 0, 2] (attention weights × empty values) on cpu and wasm', 'zeros on both (before, on wasm: Aborted())', () => onCpuAndWasm(() => matMul(ones([2, 2, 3, 0]), ones([2, 2, 0, 2]))), sameAs(`[2, 2, 3, 2] float32 ${JSON.stringify(new Array(24).fill(0))}`)),
  safely(Z, 'fused matMul [3, 0] × [0, 2] with a bias and relu on cpu and wasm', 'relu(bias) on both (before, on wasm: zeros, the bias ignored)', () => onCpuAndWasm(() => fused.matMul({ a: ones([3, 0]), b: ones([0, 2]), bias: tensor1d([-1, 2]), activation: 'relu' })), sameAs('[3, 2] float32 [0,2,0,2,0,2]')),
  safely(Z, 'max and prod over an empty axis ([2, 0] along 1) on cpu and wasm', 'NaN and 1 on both, as cpu gives (before, on wasm: 0 and 0)', () => onCpuAndWasm(() => concat([prod(max(ones([2, 0]), 1, true), 1), prod(ones([2, 0]), 1)])), sameAs('[4] float32 [null,null,1,1]')),
  safely(Z, 'gather of ids [0, 2] along axis 1 of [0, 3, 4] on cpu and wasm', 'an empty [0, 2, 4] on both (before, on wasm: shape [1, 0, 2, 4])', () => onCpuAndWasm(() => gather(ones([0, 3, 4]), tensor1d([0, 2], 'int32'), 1)), sameAs('[0, 2, 4] float32 []')),
  safely(Z, 'cumsum of [0, 3, 4] along axis 1 on cpu and wasm', 'an empty [0, 3, 4] on both (before, on wasm: RuntimeError: divide by zero)', () => onCpuAndWasm(() => cumsum(ones([0, 3, 4]), 1)), sameAs('[0, 3, 4] float32 []')),
  safely(Z, 'MultiHeadAttention.call after one with an empty key, on wasm', 'answers as cpu (the wasm module is not poisoned)', () => onCpuAndWasm(() => withAttention((mha) => {
    try { mha.call(ones([2, 3, 4]), ones([2, 0, 4]), ones([2, 0, 4])); } catch { /* compared below: the later call is what must work */ }
    return mha.call(tensor3d([0.5, -1, 2, 0, 1, 1, -0.5, 3], [1, 2, 4])).output;
  })), (v) => same(v) && (v as string[])[0]!.startsWith('[1, 2, 4] float32')),
];
