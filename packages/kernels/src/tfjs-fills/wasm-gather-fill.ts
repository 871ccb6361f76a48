import { backend_util, util, type KernelFunc, type Tensor, type TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';


/** Rows shorter than this are left to the original kernel (one copy call per row would cost more). */
const MIN_ROW = 8;

/**
 * tfjs-backend-wasm 4.22's `GatherV2` moves one element at a time (≈ 9 ms to look up 1024 rows of
 * a `[30522, 384]` embedding table). This re-registers `GatherV2` on wasm to copy whole rows heap
 * to heap, one `copyWithin` per index, whenever the gathered rows have ≥ 8 elements or `batchDims`
 * is set (the original kernel gathers the wrong elements with `batchDims`) or the result is empty
 * (the original gives it the wrong shape); shorter rows without them, strings and complex numbers
 * keep the original kernel. Indices are checked as before: one out of
 * `[0, n - 1]` throws.
 *
 * @returns `['GatherV2']`, or `[]` if tfjs-backend-wasm has no GatherV2 kernel
 * @example
 * fillWasmGather(); // after tf.setBackend('wasm'); gather(table, ids) as before
 */
export function fillWasmGather(): string[] {
  return replaceWasmKernel('GatherV2', (kernel) => {
    const kernelFunc: KernelFunc = (args) => {
      const { x, indices } = args.inputs as unknown as { x: TensorInfo; indices: TensorInfo };
      const { axis, batchDims } = args.attrs as unknown as { axis: number; batchDims: number };
      const parsedAxis = util.parseAxisParam(axis, x.shape)[0]!;
      const info = backend_util.segment_util.collectGatherOpShapeInfo(x as Tensor, indices as Tensor, parsedAxis, batchDims);
      const empty = util.sizeFromShape(info.outputShape) === 0; // the original gives an empty result the wrong shape ([1, 0, 2, 4] for [0, 2, 4])
      if (x.dtype === 'string' || x.dtype === 'complex64' || (info.sliceSize < MIN_ROW && batchDims === 0 && !empty)) return kernel.kernelFunc(args); // the original gets batchDims wrong: short rows with batchDims stay here
      const backend = wasmInternals(args.backend)!;
      const ids = backend.readSync(indices.dataId); // the indices only: a few KB
      for (let i = 0; i < ids.length; i++) {
        if (!(ids[i]! >= 0 && ids[i]! < info.dimSize)) throw new Error(`GatherV2: index ${ids[i]} at position ${i} is outside [0, ${info.dimSize - 1}]`);
      }
      const out = backend.makeOutput(info.outputShape, x.dtype);
      if (util.sizeFromShape(info.outputShape) === 0) return out;
      const rowBytes = util.bytesPerElement(x.dtype) * info.sliceSize;
      const perBatch = ids.length / info.batchSize;
      const inBase = heapOffset(backend, x);
      let outByte = heapOffset(backend, out);
      const heap = backend.wasm.HEAPU8; // read after makeOutput: allocating may grow the memory
      // x as [batch, outer, dim, row] -> out as [batch, outer, perBatch, row]
      for (let b = 0; b < info.batchSize; b++) {
        for (let o = 0; o < info.outerSize; o++) {
          const block = inBase + rowBytes * info.dimSize * (b * info.outerSize + o);
          for (let i = 0; i < perBatch; i++) {
            const from = block + rowBytes * ids[b * perBatch + i]!;
            heap.copyWithin(outByte, from, from + rowBytes);
            outByte += rowBytes;
          }
        }
      }
      return out;
    };
    return kernelFunc;
  });
}
