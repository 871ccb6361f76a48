import { util, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';


/**
 * tfjs-backend-wasm 4.22's `Tile` computes every output element's source index in a loop (≈ 170 ns
 * per element here). `where(mask, scores, fill)` broadcasts its operands with it, so a padding mask
 * `[B, 1, 1, S]` tiled to the scores `[B, H, T, S]` cost ≈ 260 ms per BERT layer at 8 × 128. This
 * re-registers `Tile` on wasm to build the output from block copies: each axis, innermost first,
 * is one source block copied once and then doubled (`copyWithin` of 1, 2, 4, ... blocks) until it
 * repeats `reps` times, so the calls grow with the logarithm of the repetitions, not the elements.
 * Strings and complex numbers keep the original kernel.
 *
 * @returns `['Tile']`, or `[]` if tfjs-backend-wasm has no Tile kernel
 * @example
 * fillWasmTile(); // after tf.setBackend('wasm'); tile(x, reps) and broadcastTo(x, shape) as before
 */
export function fillWasmTile(): string[] {
  return replaceWasmKernel('Tile', (kernel) => {
    const kernelFunc: KernelFunc = (args) => {
      const { x } = args.inputs as unknown as { x: TensorInfo };
      if (x.dtype === 'string' || x.dtype === 'complex64') return kernel.kernelFunc(args);
      const { reps } = args.attrs as unknown as { reps: number[] };
      const backend = wasmInternals(args.backend)!;
      const shape = x.shape.length === 0 ? [1] : x.shape; // a scalar tiles like [1]
      const outShape = shape.map((s, a) => s * reps[a]!);
      const out = backend.makeOutput(x.shape.length === 0 ? [] : outShape, x.dtype);
      if (util.sizeFromShape(outShape) === 0) return out;
      const bytes = util.bytesPerElement(x.dtype);
      const heap = backend.wasm.HEAPU8; // read after makeOutput: allocating may grow the memory
      const inBase = heapOffset(backend, x);
      const outBase = heapOffset(backend, out);
      // bytes of one index along each axis: in the input, and in the (tiled) output
      const inStride = shape.map((_, a) => bytes * util.sizeFromShape(shape.slice(a + 1)));
      const outStride = outShape.map((_, a) => bytes * util.sizeFromShape(outShape.slice(a + 1)));
      const fill = (axis: number, to: number, from: number): void => {
        const block = shape[axis]! * outStride[axis]!; // this axis before repetition, inner axes tiled
        if (axis === shape.length - 1) heap.copyWithin(to, from, from + block);
        else for (let i = 0; i < shape[axis]!; i++) fill(axis + 1, to + i * outStride[axis]!, from + i * inStride[axis]!);
        for (let done = 1; done < reps[axis]!; done *= 2) {
          const copies = Math.min(done, reps[axis]! - done);
          heap.copyWithin(to + done * block, to, to + copies * block); // 1 → 2 → 4 ... blocks
        }
      };
      fill(0, outBase, inBase);
      return out;
    };
    return kernelFunc;
  });
}
