import { mul, sub, sum, util, zerosLike, type KernelFunc, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';
import { registerWasmKernel } from './register-wasm-kernel.js';
import { simdKernelsOn } from './tfjs-fills-on.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/**
 * The name of attnkit's fused masked-softmax kernel: inputs `scores [..., T, S]` (float32) and
 * `mask` (bool, `true` = may attend, broadcastable to the scores with last axis S); output the
 * softmax over the allowed entries of each row, 0 where blocked, a row with nothing allowed all
 * zeros. Registered on wasm by `fillWasmKernels()` (`useBackend('wasm')`); `@attnkit/masks`' `maskedSoftmax` uses it when
 * `getKernel(MASKED_SOFTMAX_KERNEL, backend)` exists and composes tfjs ops elsewhere.
 *
 * @example
 * engine().runKernel(MASKED_SOFTMAX_KERNEL, { scores, mask }); // [B, H, T, S], mask [B, 1, 1, S]
 */
export const MASKED_SOFTMAX_KERNEL = 'AttnkitMaskedSoftmax';

/**
 * Registers {@link MASKED_SOFTMAX_KERNEL} on wasm: one SIMD pass per row over scores and mask bytes
 * (`csrc/tfjs-fills.c`), where the composite broadcasts the mask (`Tile`), selects, takes
 * the softmax, casts the mask and multiplies. The mask's leading axes may broadcast in any pattern:
 * rows that share a mask row, or follow it one for one, go to the kernel in one call. Its gradient,
 * `y · (dy − Σ dy · y)` (0 where blocked), is registered with it.
 *
 * @returns `[MASKED_SOFTMAX_KERNEL]`, or `[]` when SIMD kernels cannot run
 * @example
 * fillWasmMaskedSoftmax(); // after tf.setBackend('wasm')
 */
export function fillWasmMaskedSoftmax(): string[] {
  const kernelFunc: KernelFunc = (args) => {
    const { scores, mask } = args.inputs as unknown as { scores: TensorInfo; mask: TensorInfo };
    const backend = wasmInternals(args.backend)!;
    const shape = scores.shape;
    const width = shape.at(-1) ?? 1;
    const maskShape = [...Array<number>(shape.length - mask.shape.length).fill(1), ...mask.shape];
    if (maskShape.at(-1) !== width) throw new Error(`${MASKED_SOFTMAX_KERNEL}: the mask's last axis must be S = ${width}; received shape [${mask.shape.join(', ')}]`);
    const out = backend.makeOutput(shape, 'float32');
    if (util.sizeFromShape(shape) === 0) return out;
    const [rowDims, maskRowDims] = [shape.slice(0, -1), maskShape.slice(0, -1)];
    // the innermost row axes over which the mask row is either shared (stride 0) or followed one for one
    let first = rowDims.length;
    let mode: 'shared' | 'followed' | undefined;
    while (first > 0) {
      const a = first - 1;
      const kind = rowDims[a] === 1 ? undefined : maskRowDims[a] === 1 ? 'shared' : 'followed';
      if (kind !== undefined && mode !== undefined && kind !== mode) break;
      mode = kind ?? mode;
      first = a;
    }
    const rowsPerCall = util.sizeFromShape(rowDims.slice(first));
    const maskRowStrides = maskRowDims.map((_, a) => util.sizeFromShape(maskRowDims.slice(a + 1)));
    const simd = simdKernelsOn(backend)!;
    const [scoresBase, maskBase, outBase] = [scores, mask, out].map((t) => heapOffset(backend, t)) as [number, number, number];
    const outer = util.sizeFromShape(rowDims.slice(0, first));
    for (let o = 0; o < outer; o++) {
      let maskRow = 0;
      for (let a = first - 1, rest = o; a >= 0; a--) {
        maskRow += maskRowDims[a] === 1 ? 0 : (rest % rowDims[a]!) * maskRowStrides[a]!;
        rest = Math.floor(rest / rowDims[a]!);
      }
      const floats = o * rowsPerCall * width;
      simd.maskedSoftmax(scoresBase + 4 * floats, maskBase + maskRow * width, outBase + 4 * floats, rowsPerCall, width, mode === 'followed' ? width : 0); // bool: one byte per entry
    }
    return out;
  };
  return registerWasmKernel(MASKED_SOFTMAX_KERNEL, kernelFunc, {
    inputsToSave: ['mask'],
    outputsToSave: [true],
    gradFunc: (dy, saved) => {
      const [mask, y] = saved as [Tensor, Tensor];
      const d = dy as Tensor;
      return { scores: () => mul(y, sub(d, sum(mul(d, y), -1, true))), mask: () => zerosLike(mask) };
    },
  });
}
