import { getKernel, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { replaceWasmKernel } from './replace-wasm-kernel.js';
import { heapOffset, wasmInternals } from '../tfjs-internals.js';

/** tfjs-backend-wasm's exported `BatchMatMul(aId, aShape, aRank, bId, bShape, bRank, transposeA, transposeB, outId)`. */
type SingleMatMul = (a: number, aShape: Uint8Array, aRank: number, b: number, bShape: Uint8Array, bRank: number, transposeA: boolean, transposeB: boolean, out: number) => void;
const singleMatMuls = new WeakMap<object, SingleMatMul>();

/**
 * tfjs-backend-wasm 4.22 multiplies a batch of matrices (`[N, m, k] × [N, k, n]`, N > 1) in a naive
 * loop at ≈ 2 GFLOP/s; only a single untransposed product reaches XNNPACK. Attention's per-head
 * products are exactly that case. This re-registers `BatchMatMul` on wasm: transposed operands are
 * materialised with the (fast, rank ≤ 4) Transpose kernel, and each product goes through the
 * XNNPACK path on zero-copy views of the heap: its operands are views into the batches, and it
 * writes straight into its slot of the output (no per-matrix outputs, no concatenation).
 * Broadcast batches keep the original kernel.
 *
 * @returns `['BatchMatMul']`, or `[]` if a building block is missing
 * @example
 * fillWasmBatchMatMul(); // after tf.setBackend('wasm')
 */
export function fillWasmBatchMatMul(): string[] {
  return replaceWasmKernel('BatchMatMul', (kernel) => {
    const [reshape, transpose] = ['Reshape', 'Transpose'].map((n) => getKernel(n, 'wasm'));
    if (reshape === undefined || transpose === undefined) return undefined;
    const kernelFunc: KernelFunc = (args) => {
      const { a, b } = args.inputs as unknown as { a: TensorInfo; b: TensorInfo };
      const { transposeA, transposeB } = args.attrs as { transposeA: boolean; transposeB: boolean };
      const batchA = a.shape.slice(0, -2);
      const batchB = b.shape.slice(0, -2);
      const batch = batchA.reduce((n, s) => n * s, 1);
      const same = batchA.length === batchB.length && batchA.every((s, i) => s === batchB[i]);
      if (batch <= 1 || !same || a.dtype !== 'float32' || b.dtype !== 'float32') return kernel.kernelFunc(args);
      const backend = wasmInternals(args.backend)!;
      const temporaries: TensorInfo[] = [];
      const views: TensorInfo[] = [];
      const run = (k: KernelConfig, inputs: Record<string, TensorInfo> | TensorInfo[], attrs: object): TensorInfo => {
        const out = k.kernelFunc({ inputs: inputs as never, attrs: attrs as never, backend: args.backend }) as TensorInfo;
        temporaries.push(out);
        return out;
      };
      const matrices = (x: TensorInfo, transposed: boolean): TensorInfo => {
        const [rows, cols] = x.shape.slice(-2) as [number, number];
        const flat = run(reshape, { x }, { shape: [batch, rows, cols] }); // [..., r, c] -> [N, r, c]
        return transposed ? run(transpose, { x: flat }, { perm: [0, 2, 1] }) : flat; // -> [N, c, r], contiguous
      };
      const view = (x: TensorInfo, i: number, shape = x.shape): number => {
        const [, rows, cols] = shape as [number, number, number];
        const base = heapOffset(backend, x);
        const v = backend.makeOutput([1, rows, cols], 'float32', base + 4 * i * rows * cols); // no copy
        views.push(v);
        return (v.dataId as { id: number }).id;
      };
      let single = singleMatMuls.get(backend);
      if (single === undefined) {
        single = backend.wasm.cwrap<SingleMatMul>('BatchMatMul', null, ['number', 'array', 'number', 'number', 'array', 'number', 'number', 'number', 'number']);
        singleMatMuls.set(backend, single);
      }
      try {
        const [ma, mb] = [matrices(a, transposeA), matrices(b, transposeB)];
        const [m, k] = ma.shape.slice(1) as [number, number];
        const n = mb.shape[2] as number;
        const out = backend.makeOutput([batch, m, n], 'float32');
        const [aShape, bShape] = [[1, m, k], [1, k, n]].map((shape) => new Uint8Array(Int32Array.from(shape).buffer));
        // each product is written in place into its slot of the output: no per-matrix outputs, no concat
        for (let i = 0; i < batch; i++) single(view(ma, i), aShape!, 3, view(mb, i), bShape!, 3, false, false, view(out, i, [batch, m, n]));
        return { ...out, shape: [...batchA, m, n] };
      } finally {
        for (const v of views) {
          // a view owns no memory: unregister it (which also drops XNNPACK state cached for it) without freeing
          backend.wasm.tfjs.disposeData((v.dataId as { id: number }).id);
          backend.dataIdMap.delete(v.dataId);
        }
        for (const t of temporaries) backend.disposeData(t.dataId);
      }
    };
    return kernelFunc;
  });
}
