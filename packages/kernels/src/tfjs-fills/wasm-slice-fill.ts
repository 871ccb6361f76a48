import { slice_util, util, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';


/**
 * tfjs-backend-wasm 4.22's `Slice` first copies the whole input out of the wasm heap into a new
 * JavaScript array (`readSync`), then copies the slice back in: splitting a fused q/k/v projection
 * `[3, B·T, E]` into three moves 4× the data it needs to. This re-registers `Slice` on wasm to copy
 * the slice heap to heap: one `copyWithin` per contiguous run (one in all when the slice is
 * contiguous, e.g. along the first axis; B runs for `x[:, 0]` of `[B, T, E]`). Strings and
 * complex numbers keep the original kernel. A slice that runs past the input throws, as on cpu (the
 * original kernel read whatever lay beyond the tensor in the heap).
 *
 * @returns `['Slice']`, or `[]` if tfjs-backend-wasm has no Slice kernel
 * @example
 * fillWasmSlice(); // after tf.setBackend('wasm'); slice(x, begin, size) as before
 */
export function fillWasmSlice(): string[] {
  return replaceWasmKernel('Slice', (kernel) => {
    const kernelFunc: KernelFunc = (args) => {
      const { x } = args.inputs as unknown as { x: TensorInfo };
      if (x.dtype === 'string' || x.dtype === 'complex64') return kernel.kernelFunc(args);
      const { begin, size } = args.attrs as unknown as { begin: number | number[]; size: number | number[] };
      const [start, extent] = slice_util.parseSliceParams(x as never, begin, size) as [number[], number[]];
      slice_util.assertParamsValid(x as never, start, extent); // as the cpu kernel: a slice past the end throws instead of reading beyond the tensor
      const backend = wasmInternals(args.backend)!;
      const out = backend.makeOutput(extent, x.dtype);
      if (util.sizeFromShape(extent) === 0) return out;
      const bytes = util.bytesPerElement(x.dtype);
      const strides = [...util.computeStrides(x.shape), 1];
      // Axes from `first` on are copied as one run: every axis after `first` is taken whole.
      let first = x.shape.length - 1;
      while (first > 0 && extent[first] === x.shape[first]) first--;
      const runBytes = bytes * (first < 0 ? 1 : extent[first]! * strides[first]!);
      const inBase = heapOffset(backend, x);
      let outByte = heapOffset(backend, out);
      const heap = backend.wasm.HEAPU8; // read after makeOutput: allocating may grow the memory
      const index = new Array<number>(Math.max(first, 0)).fill(0); // odometer over the axes before `first`
      for (;;) {
        let element = first < 0 ? 0 : start[first]! * strides[first]!;
        for (let a = 0; a < index.length; a++) element += (start[a]! + index[a]!) * strides[a]!;
        heap.copyWithin(outByte, inBase + bytes * element, inBase + bytes * element + runBytes);
        outByte += runBytes;
        let a = index.length - 1;
        while (a >= 0 && ++index[a]! === extent[a]) index[a--] = 0;
        if (a < 0) return out;
      }
    };
    return kernelFunc;
  });
}
