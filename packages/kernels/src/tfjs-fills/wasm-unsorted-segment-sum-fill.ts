import { getKernel, registerKernel, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { wasmInternals } from '../tfjs-internals.js';

/**
 * tfjs-backend-wasm 4.22 has no `UnsortedSegmentSum` kernel, and `tf.gather`'s gradient needs it:
 * without it, nothing with an embedding lookup can train on wasm. This registers one built from
 * wasm kernels: `oneHot(segmentIds)ᵀ · x` as a single batched matMul. Ids outside
 * `[0, numSegments)` contribute nothing (their one-hot row is zero), as in TensorFlow.
 *
 * `x [N, ...rest]` (float32), `segmentIds [N]` (or a prefix shape of `x`) → `[numSegments, ...rest]`.
 *
 * @returns `['UnsortedSegmentSum']`, or `[]` if wasm already has it or lacks a building block
 * @example
 * fillWasmUnsortedSegmentSum(); // after tf.setBackend('wasm'): embedding gradients now work
 */
export function fillWasmUnsortedSegmentSum(): string[] {
  if (getKernel('UnsortedSegmentSum', 'wasm') !== undefined) return registered ? ['UnsortedSegmentSum'] : [];
  const [reshape, oneHot, cast, matMul] = ['Reshape', 'OneHot', 'Cast', 'BatchMatMul'].map((name) => getKernel(name, 'wasm'));
  if (reshape === undefined || oneHot === undefined || cast === undefined || matMul === undefined) return [];
  const kernelFunc: KernelFunc = ({ inputs, attrs, backend }) => {
    const { x, segmentIds } = inputs as unknown as { x: TensorInfo; segmentIds: TensorInfo };
    const numSegments = (attrs as { numSegments: number }).numSegments;
    const rows = segmentIds.shape.reduce((n, s) => n * s, 1);
    const rest = x.shape.slice(segmentIds.shape.length);
    const width = rest.reduce((n, s) => n * s, 1);
    const temporaries: TensorInfo[] = [];
    const run = (kernel: typeof reshape, kernelInputs: Record<string, TensorInfo>, kernelAttrs: object): TensorInfo => {
      const out = kernel!.kernelFunc({ inputs: kernelInputs, attrs: kernelAttrs as never, backend }) as TensorInfo;
      temporaries.push(out);
      return out;
    };
    try {
      const ids = run(reshape, { x: segmentIds }, { shape: [rows] }); // [N]
      const hot = run(oneHot, { indices: ids }, { depth: numSegments, onValue: 1, offValue: 0, dtype: 'int32' }); // [N, numSegments], int32
      const a = run(reshape, { x: run(cast, { x: hot }, { dtype: 'float32' }) }, { shape: [1, rows, numSegments] }); // wasm's OneHot emits int32
      const b = run(reshape, { x }, { shape: [1, rows, width] }); // [1, N, R]
      const summed = run(matMul, { a, b }, { transposeA: true, transposeB: false }); // [1, numSegments, R]
      // Reshape shares summed's data (ref-counted), so the result outlives the temporaries' disposal
      return reshape.kernelFunc({ inputs: { x: summed }, attrs: { shape: [numSegments, ...rest] } as never, backend }) as TensorInfo;
    } finally {
      for (const t of temporaries) wasmInternals(backend)!.disposeData(t.dataId);
    }
  };
  registerKernel({ kernelName: 'UnsortedSegmentSum', backendName: 'wasm', kernelFunc });
  registered = true;
  return ['UnsortedSegmentSum'];
}

let registered = false;
