import { fillWasmAttentionRows } from './wasm-attention-rows-fill.js';
import { fillWasmBatchMatMul } from './wasm-batch-matmul-fill.js';
import { fillWasmErf } from './wasm-erf-fill.js';
import { fillWasmFusedMatMul } from './wasm-fused-matmul-fill.js';
import { fillWasmGather } from './wasm-gather-fill.js';
import { fillWasmGelu } from './wasm-gelu-fill.js';
import { fillWasmGeluTanh } from './wasm-gelu-tanh-fill.js';
import { fillWasmIdentity } from './wasm-identity-fill.js';
import { fillWasmKvAppend } from './wasm-kv-append-fill.js';
import { fillWasmDecodeAttention } from './wasm-decode-attention-fill.js';
import { fillWasmLayerNorm } from './wasm-layer-norm-fill.js';
import { fillWasmMaskedSoftmax } from './wasm-masked-softmax-fill.js';
import { fillWasmRmsNorm } from './wasm-rms-norm-fill.js';
import { fillWasmRotary } from './wasm-rotary-fill.js';
import { fillWasmSiluMul } from './wasm-silu-mul-fill.js';
import { fillWasmSlice } from './wasm-slice-fill.js';
import { fillWasmSplit } from './wasm-split-fill.js';
import { fillWasmTile } from './wasm-tile-fill.js';
import { fillWasmUnsortedSegmentSum } from './wasm-unsorted-segment-sum-fill.js';
import { guardWasmZeroSize } from './wasm-zero-size-guard.js';

/**
 * Registers attnkit's kernels on the tfjs-backend-wasm backend, once (idempotent): its own kernels
 * (`GELU_KERNEL`, `GELU_TANH_KERNEL`, `LAYER_NORM_KERNEL`, `MASKED_SOFTMAX_KERNEL`, `RMS_NORM_KERNEL`, `SILU_MUL_KERNEL`, `ROTARY_KERNEL`, `ATTENTION_ROWS_KERNEL`, from `csrc/tfjs-fills.c` run on
 * tfjs-wasm's memory, and `KV_APPEND_KERNEL`, heap to heap), faster or missing versions of tfjs kernels (`Erf`, `BatchMatMul`,
 * `_FusedMatMul`, `Slice`, `SplitV`, `GatherV2`, `Tile`, `UnsortedSegmentSum`, `Identity`), and last the zero-size guard,
 * which wraps every kernel that mishandles empty tensors, the fills included. `useBackend('wasm')`
 * of `@attnkit/backends` calls it once the backend is up; call it yourself after `tf.setBackend('wasm')`
 * when you start tfjs-wasm without attnkit's backends. Where WebAssembly SIMD is missing, the SIMD
 * kernels are left out and tfjs' own run.
 *
 * @returns the names of the kernels registered or replaced
 * @example
 * await tf.setBackend('wasm');
 * fillWasmKernels(); // ['_FusedMatMul', 'UnsortedSegmentSum', 'BatchMatMul', 'Erf', ...]
 */
export function fillWasmKernels(): readonly string[] {
  const fills = [...fillWasmFusedMatMul(), ...fillWasmUnsortedSegmentSum(), ...fillWasmBatchMatMul(), ...fillWasmErf(), ...fillWasmSlice(), ...fillWasmSplit(), ...fillWasmGather(), ...fillWasmGelu(), ...fillWasmGeluTanh(), ...fillWasmLayerNorm(), ...fillWasmTile(), ...fillWasmMaskedSoftmax(), ...fillWasmRmsNorm(), ...fillWasmSiluMul(), ...fillWasmRotary(), ...fillWasmAttentionRows(), ...fillWasmKvAppend(), ...fillWasmDecodeAttention(), ...fillWasmIdentity()];
  return [...new Set([...fills, ...guardWasmZeroSize()])]; // the guard last: it wraps the fills too
}
