import { getKernel, registerKernel, unregisterKernel, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';

/** The parts of tfjs-backend-wasm's BackendWasm this fill relies on (4.22). */
interface WasmBackendInternals {
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined; delete(dataId: object): boolean };
  makeOutput(shape: number[], dtype: 'float32', memoryOffset?: number): TensorInfo;
  disposeData(dataId: object): boolean;
  wasm: { tfjs: { disposeData(id: number): void } };
}

let original: KernelConfig | undefined;

/**
 * tfjs-backend-wasm 4.22 multiplies a batch of matrices (`[N, m, k] × [N, k, n]`, N > 1) in a naive
 * loop at ≈ 2 GFLOP/s; only a single untransposed product reaches XNNPACK. Attention's per-head
 * products are exactly that case. This re-registers `BatchMatMul` on wasm: transposed operands are
 * materialised with the (fast, rank ≤ 4) Transpose kernel, each matrix is passed to the XNNPACK
 * path as a zero-copy view into the batch's memory, and the products are concatenated.
 * Broadcast batches keep the original kernel.
 *
 * @returns `['BatchMatMul']`, or `[]` if a building block is missing
 * @example
 * fillWasmBatchMatMul(); // after tf.setBackend('wasm')
 */
export function fillWasmBatchMatMul(): string[] {
  if (original !== undefined) return ['BatchMatMul'];
  const [kernel, reshape, transpose, concat] = ['BatchMatMul', 'Reshape', 'Transpose', 'Concat'].map((n) => getKernel(n, 'wasm'));
  if (kernel === undefined || reshape === undefined || transpose === undefined || concat === undefined) return [];
  original = kernel;
  const kernelFunc: KernelFunc = (args) => {
    const { a, b } = args.inputs as unknown as { a: TensorInfo; b: TensorInfo };
    const { transposeA, transposeB } = args.attrs as { transposeA: boolean; transposeB: boolean };
    const batchA = a.shape.slice(0, -2);
    const batchB = b.shape.slice(0, -2);
    const batch = batchA.reduce((n, s) => n * s, 1);
    const same = batchA.length === batchB.length && batchA.every((s, i) => s === batchB[i]);
    if (batch <= 1 || !same || a.dtype !== 'float32' || b.dtype !== 'float32') return kernel.kernelFunc(args);
    const backend = args.backend as unknown as WasmBackendInternals;
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
    const view = (x: TensorInfo, i: number): TensorInfo => {
      const [, rows, cols] = x.shape as [number, number, number];
      const base = backend.dataIdMap.get(x.dataId)!.memoryOffset;
      const v = backend.makeOutput([1, rows, cols], 'float32', base + 4 * i * rows * cols); // no copy
      views.push(v);
      return v;
    };
    try {
      const [ma, mb] = [matrices(a, transposeA), matrices(b, transposeB)];
      const [m] = ma.shape.slice(1) as [number, number];
      const n = mb.shape[2] as number;
      const products: TensorInfo[] = [];
      for (let i = 0; i < batch; i++) products.push(run(kernel, { a: view(ma, i), b: view(mb, i) }, { transposeA: false, transposeB: false }));
      const joined = run(concat, products, { axis: 0 }); // [N, m, n]
      return reshape.kernelFunc({ inputs: { x: joined }, attrs: { shape: [...batchA, m, n] } as never, backend: args.backend }) as TensorInfo; // shares joined's data
    } finally {
      for (const v of views) {
        // a view owns no memory: unregister it (which also drops XNNPACK state cached for it) without freeing
        backend.wasm.tfjs.disposeData((v.dataId as { id: number }).id);
        backend.dataIdMap.delete(v.dataId);
      }
      for (const t of temporaries) backend.disposeData(t.dataId);
    }
  };
  unregisterKernel('BatchMatMul', 'wasm');
  registerKernel({ ...kernel, kernelFunc });
  return ['BatchMatMul'];
}
