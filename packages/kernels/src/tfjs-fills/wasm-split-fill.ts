import { backend_util, getKernel, util, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { originalWasmKernel, replaceWasmKernel } from './replace-wasm-kernel.js';

/**
 * tfjs-backend-wasm 4.22's `SplitV` cuts each piece with its own internal slice, which first copies
 * the whole input out of the wasm heap into a JavaScript array (`readSync`) — once per piece: the
 * three-way split of a fused q/k/v projection copies the projection out three times. This
 * re-registers `SplitV` on wasm to cut each piece with the registered `Slice` kernel (attnkit's
 * heap-to-heap copy, `fillWasmSlice`), with tfjs' split sizes (`numOrSizeSplits`: a count, or sizes
 * with at most one -1). Where `Slice` was not replaced, each call runs the original `SplitV`.
 *
 * @returns `['SplitV']`, or `[]` if tfjs-backend-wasm has no SplitV kernel
 * @example
 * fillWasmSplit(); // after fillWasmSlice(): split(qkv, [576, 192, 192], -1) copies heap to heap
 */
export function fillWasmSplit(): string[] {
  return replaceWasmKernel('SplitV', (kernel) => {
    const kernelFunc: KernelFunc = (args) => {
      const slice = getKernel('Slice', 'wasm');
      const { x } = args.inputs as unknown as { x: TensorInfo };
      if (slice === undefined || originalWasmKernel('Slice') === undefined) return kernel.kernelFunc(args); // Slice is still tfjs' own: nothing gained
      const { numOrSizeSplits, axis } = args.attrs as unknown as { numOrSizeSplits: number | number[]; axis: number | number[] };
      const at = util.parseAxisParam(axis, x.shape)[0]!;
      const sizes = backend_util.prepareSplitSize(x as never, numOrSizeSplits, at);
      const begin = new Array<number>(x.shape.length).fill(0);
      return sizes.map((s) => {
        const size = [...x.shape];
        size[at] = s;
        const piece = slice.kernelFunc({ inputs: { x }, attrs: { begin: [...begin], size }, backend: args.backend }) as TensorInfo;
        begin[at]! += s;
        return piece;
      });
    };
    return kernelFunc;
  });
}
