import { engine, mul, sigmoid, split, tensor, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { checkOptionKeys, checkTensor, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { checkInt8Weight, type Int8Weight } from './int8-weight.js';
import { int8WeightArrays, isFrozenInt8Weight } from './frozen-int8-weight.js';
import type { Int8KernelName } from './int8-kernel-name.js';
import { int8Kernel } from './int8-kernels.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { kernelRoute } from './kernel-route.js';
import { WasmInt8Gemm, type GatedProductWeight } from './wasm-int8-gemm.js';
import { backendValues, residentOnWasm } from './backend-values.js';
import { objectKey } from './data-key.js';
import { checkInputNorm, inputNormValues, type InputNormOption } from './input-norm-option.js';
import { checkResidual } from './check-residual.js';
import { int8MatMul } from './int8-mat-mul.js';
import { SILU_MUL_KERNEL } from './tfjs-fills/wasm-silu-mul-fill.js';

/** Options of {@link int8GatedFeedForward}. */
export interface Int8GatedFeedForwardOptions {
  /** `[2F]` float32: the gate's bias, then up's, added to their product. */
  readonly gateUpBias?: Tensor;
  /** `[M]` float32: down's bias. */
  readonly downBias?: Tensor;
  /** Each row of `x` normalized first (`{ kind: 'rmsNorm' | 'layerNorm', weight, bias?, epsilon }`), as in {@link int8MatMul}. */
  readonly inputNorm?: InputNormOption;
  /** `[..., M]` float32 (the output's shape), added last: a decoder's `h + mlp(norm(h))`. */
  readonly residual?: Tensor;
  /** Force one int8 kernel, as in {@link int8MatMul}. */
  readonly kernel?: Int8KernelName;
}

/**
 * A SwiGLU feed-forward block in int8 (`LlamaMLP`): `residual + down(silu(gate(x)) · up(x))`, with
 * `gateUp` the gate and up projections stacked (`[2F, K]`, the gate's F rows first) and `down`
 * `[M, F]`. The numbers are those of the three calls it replaces, bit for bit:
 * `int8MatMul(x, gateUp, gateUpBias, { inputNorm })`, then `silu(gate) · up` (the wasm backend's
 * `SILU_MUL_KERNEL`, elsewhere tfjs' `gate · sigmoid(gate) · up`), then
 * `int8MatMul(hidden, down, downBias, { residual })`. On the WebAssembly int8 kernels with the wasm
 * backend it is one call into the kernels' memory: the hidden rows `[..., F]` never leave it (no
 * tfjs tensor, no copy in or out between the products). Inference only.
 *
 * Shapes: `x [..., K]` float32, `gateUp` `Int8Weight` `[2F, K]`, `down` `Int8Weight` `[M, F]` →
 * `[..., M]` float32.
 *
 * @example
 * const gateUp = quantizeWeightPerChannel(concat([wGate, wUp], 1)); // [K, 2F] -> int8 [2F, K]
 * const down = quantizeWeightPerChannel(wDown);                    // [F, M]  -> int8 [M, F]
 * const y = int8GatedFeedForward(h, gateUp, down, { inputNorm: { kind: 'rmsNorm', weight, epsilon: 1e-5 }, residual: h }); // [B, T, M]
 */
export function int8GatedFeedForward(x: Tensor, gateUp: Int8Weight, down: Int8Weight, options: Int8GatedFeedForwardOptions = {}): Tensor {
  const caller = 'int8GatedFeedForward';
  if (engine().isTapeOn()) throw new InferenceOnlyError({ caller, hint: 'int8 weights have no gradient: train the float model (load it without quantize: \'int8\').' });
  checkTensor(x, { caller, argument: 'x', dtype: 'float32', shape: '[..., K]' });
  const first = isFrozenInt8Weight(gateUp) ? gateUp : checkInt8Weight(gateUp, caller, 'gateUp');
  const second = isFrozenInt8Weight(down) ? down : checkInt8Weight(down, caller, 'down');
  const { gateUpBias, downBias, inputNorm, residual, kernel: kernelName } = checkOptionKeys(options, ['gateUpBias', 'downBias', 'inputNorm', 'residual', 'kernel'], caller);
  const [depth, hiddenWidth, outWidth] = [first.inFeatures, second.inFeatures, second.outFeatures]; // K, F, M
  if (x.rank === 0 || x.shape[x.rank - 1] !== depth) {
    throw new InvalidArgumentError({ caller, argument: 'x', expected: `a float32 tensor [..., K] with K = ${depth} (gateUp is [2F, K] = ${formatShape([first.outFeatures, depth])})`, received: `rank ${x.rank} ${formatShape(x.shape)}` });
  }
  if (first.outFeatures !== 2 * hiddenWidth) {
    throw new InvalidArgumentError({ caller, argument: 'gateUp', expected: `[2F, K] with 2F = ${2 * hiddenWidth} (twice down's F: down is [M, F] = ${formatShape([outWidth, hiddenWidth])})`, received: formatShape([first.outFeatures, depth]) });
  }
  for (const [argument, bias, width] of [['gateUpBias', gateUpBias, 2 * hiddenWidth], ['downBias', downBias, outWidth]] as const) {
    if (bias === undefined) continue;
    checkTensor(bias, { caller, argument, dtype: 'float32', rank: 1, shape: argument === 'gateUpBias' ? '[2F]' : '[M]' });
    if (bias.shape[0] !== width) throw new InvalidArgumentError({ caller, argument, expected: `a float32 tensor [${argument === 'gateUpBias' ? '2F' : 'M'}] = [${width}]`, received: formatShape(bias.shape) });
  }
  const outShape = [...x.shape.slice(0, -1), outWidth];
  if (inputNorm !== undefined) checkInputNorm(inputNorm, depth, caller);
  if (residual !== undefined) checkResidual(residual, outShape, caller);
  const kernel = int8Kernel(kernelName, caller);
  const rows = x.shape.slice(0, -1).reduce((n, d) => n * d, 1);
  if (kernel instanceof WasmInt8Gemm && kernelRoute('siluMul', [x]).useKernel && rows * depth * hiddenWidth * outWidth > 0) {
    residentOnWasm([x, gateUpBias, downBias, residual, inputNorm?.weight, inputNorm?.bias]); // before any view: a move may grow the heap
    const view = (t: Tensor) => backendValues(t, Float32Array);
    const operand = (weight: Int8Weight, bias: Tensor | undefined, cols: number, inner: number): GatedProductWeight => {
      const { values, scales, frozen } = int8WeightArrays(weight);
      return { weight: values, weightKey: { key: objectKey(values), owner: values, frozen }, colScales: scales, bias: bias === undefined ? undefined : view(bias), cols, depth: inner };
    };
    const { inPlace } = kernelRoute('int8MatMul');
    const out = kernel.gatedMultiply({ read: () => view(x), rows, gateUp: operand(gateUp, gateUpBias, 2 * hiddenWidth, depth), down: operand(down, downBias, outWidth, hiddenWidth), caller, inPlace, inputNorm: inputNormValues(inputNorm, view), residual: residual === undefined ? undefined : view(residual) });
    return tensor(out, outShape, 'float32');
  }
  if (rows * outWidth === 0) return zeros(outShape);
  const only = kernelName === undefined ? {} : { kernel: kernelName };
  return tidy(() => {
    const both = int8MatMul(x, gateUp, gateUpBias, { ...only, ...(inputNorm === undefined ? {} : { inputNorm }) }); // [..., 2F]
    const hidden = kernelRoute('siluMul', [both]).useKernel
      ? engine().runKernel(SILU_MUL_KERNEL, { x: both }) as Tensor
      : ((([gate, up]) => mul(mul(gate!, sigmoid(gate!)), up!))(split(both, 2, -1))); // [..., F]
    return int8MatMul(hidden, down, downBias, { ...only, ...(residual === undefined ? {} : { residual }) });
  });
}
