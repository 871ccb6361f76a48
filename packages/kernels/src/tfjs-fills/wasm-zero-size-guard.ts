import { backend_util, broadcast_util, upcastType, util, type DataType, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { heapOffset, type WasmBackendInternals, wasmInternals } from '../tfjs-internals.js';
import { wrapWasmKernel } from './wrap-wasm-kernel.js';

type Args = Parameters<KernelFunc>[0];
/** What a kernel returns for zero-size input: a result, or `undefined` to run the kernel. */
type ZeroSizeRule = (args: Args, backend: WasmBackendInternals, kernel: KernelConfig) => TensorInfo | undefined;

const isEmpty = (x: TensorInfo): boolean => util.sizeFromShape(x.shape) === 0;

/** A new wasm tensor of `shape` with every element `value` (NaN becomes 0 in int32 and bool, as in the cpu kernels' typed arrays). */
function filled(backend: WasmBackendInternals, shape: number[], dtype: DataType, value: number): TensorInfo {
  const out = backend.makeOutput(shape, dtype);
  const size = util.sizeFromShape(shape);
  if (size === 0) return out;
  const View = dtype === 'float32' ? Float32Array : dtype === 'int32' ? Int32Array : Uint8Array;
  new View(backend.wasm.HEAPU8.buffer as ArrayBuffer, heapOffset(backend, out), size).fill(value); // the heap, read after makeOutput (it may grow)
  return out;
}

/**
 * A reduction of an empty input: the empty or `value`-filled result the cpu kernel gives. cpu's loops
 * start from the row's first element, which an empty row lacks: Max, Min, All and Any read
 * `undefined` (NaN in float32, 0 in int32 and bool); Sum gives 0, Prod 1, Mean 0 (cpu divides by
 * the count before summing), ArgMax and ArgMin index 0.
 */
function reduction(value: number, dtype: (x: DataType) => DataType): ZeroSizeRule {
  return ({ inputs, attrs }, backend) => {
    const { x } = inputs as unknown as { x: TensorInfo };
    if (!isEmpty(x)) return undefined;
    const { axis, reductionIndices, keepDims } = attrs as unknown as { axis?: number | number[]; reductionIndices?: number | number[]; keepDims?: boolean };
    const axes = util.parseAxisParam((axis ?? reductionIndices)!, x.shape); // Max names its axes reductionIndices
    const [outShape] = backend_util.computeOutAndReduceShapes(x.shape, axes);
    return filled(backend, keepDims === true ? backend_util.expandShapeToKeepDim(outShape, axes) : outShape, dtype(x.dtype), value);
  };
}

/**
 * A product with a zero-size dimension: empty when the output is (batch, m or n is 0); with an empty
 * inner dimension k, the zeros the sum over nothing gives, which the kernel computes (with the bias
 * and activation of `_FusedMatMul`) from all-zero operands of k = 1. XNNPACK aborts the wasm module
 * on k = 0, and tfjs's own loop leaves the output's heap memory as it found it.
 */
const product: ZeroSizeRule = (args, backend, kernel) => {
  const { a, b } = args.inputs as unknown as { a: TensorInfo; b: TensorInfo };
  if (!isEmpty(a) && !isEmpty(b)) return undefined;
  const { transposeA, transposeB } = args.attrs as unknown as { transposeA: boolean; transposeB: boolean };
  const [m, k] = (transposeA ? a.shape.slice(-2).reverse() : a.shape.slice(-2)) as [number, number];
  const n = (transposeB ? b.shape.at(-2) : b.shape.at(-1)) as number;
  const [batchA, batchB] = [a.shape.slice(0, -2), b.shape.slice(0, -2)];
  const outShape = [...broadcast_util.assertAndGetBroadcastShape(batchA, batchB), m, n];
  if (util.sizeFromShape(outShape) === 0 || k !== 0) return backend.makeOutput(outShape, a.dtype);
  if (args.inputs['bias'] == null && (args.attrs as { activation?: string }).activation === undefined) return filled(backend, outShape, a.dtype, 0); // BatchMatMul (no bias, no activation attribute): the zeros themselves, no wasm call
  const [zerosA, zerosB] = [filled(backend, [...batchA, m, 1], a.dtype, 0), filled(backend, [...batchB, 1, n], b.dtype, 0)];
  try {
    return kernel.kernelFunc({ ...args, inputs: { ...args.inputs, a: zerosA, b: zerosB }, attrs: { ...args.attrs, transposeA: false, transposeB: false } }) as TensorInfo;
  } finally {
    [zerosA, zerosB].forEach((t) => backend.disposeData(t.dataId));
  }
};

/** An empty input gives an empty output of the same shape (Cumsum) or the permuted shape (Transpose). */
const transpose: ZeroSizeRule = ({ inputs, attrs }, backend) => {
  const { x } = inputs as unknown as { x: TensorInfo };
  const { perm } = attrs as unknown as { perm: number[] };
  return isEmpty(x) ? backend.makeOutput(perm.map((p) => x.shape[p]!), x.dtype) : undefined;
};
const cumsum: ZeroSizeRule = ({ inputs }, backend) => {
  const { x } = inputs as unknown as { x: TensorInfo };
  return isEmpty(x) ? backend.makeOutput(x.shape, upcastType(x.dtype, 'int32')) : undefined;
};

const same = (x: DataType): DataType => x;
const summed = (x: DataType): DataType => upcastType(x, 'int32');
/** The kernels of tfjs-backend-wasm 4.22 that misbehave on zero-size tensors, and what they return instead. */
const RULES: Record<string, ZeroSizeRule> = {
  Transpose: transpose,
  Cumsum: cumsum,
  Sum: reduction(0, summed),
  Prod: reduction(1, summed),
  Mean: reduction(0, () => 'float32'),
  Max: reduction(NaN, same),
  Min: reduction(NaN, same),
  All: reduction(NaN, same),
  Any: reduction(NaN, same),
  ArgMax: reduction(0, () => 'int32'),
  ArgMin: reduction(0, () => 'int32'),
  BatchMatMul: product,
  _FusedMatMul: product,
};

/**
 * tfjs-backend-wasm 4.22 is wrong on zero-size tensors in three ways: `Transpose` of rank 4, and
 * every reduction and `Cumsum` along any axis but the last, throw an untyped
 * `RuntimeError: divide by zero` when an axis is 0 (`splitHeads` of `[0, T, E]`); `Max`, `Min`,
 * `Prod`, `All` and `Any` over an empty axis return 0 or stale heap bytes; and a matMul with an
 * empty inner dimension returns stale heap memory, or aborts the wasm module (`Aborted()`) so that
 * every later call hangs. This wraps those kernels (after attnkit's own fills): when an input is
 * empty, the result is made without calling into wasm, equal to cpu's: an empty tensor of the
 * right shape, a reduction's fill (see `reduction`), or a product's zeros plus its bias.
 * Non-empty inputs go to the kernel as before. `GatherV2` gets its shape right in `wasm-gather-fill`.
 *
 * @returns the kernels wrapped
 * @example
 * guardWasmZeroSize(); // after the other fills; transpose(ones([0, 3, 4, 2]), [0, 2, 1, 3]) is [0, 4, 3, 2]
 */
export function guardWasmZeroSize(): string[] {
  return Object.entries(RULES).flatMap(([name, rule]) =>
    wrapWasmKernel(name, (kernel) => (args) => rule(args, wasmInternals(args.backend)!, kernel) ?? kernel.kernelFunc(args)),
  );
}
