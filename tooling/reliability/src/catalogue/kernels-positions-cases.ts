import { ones, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { AttnkitError } from '@attnkit/errors';
import {
  InferenceOnlyError, KernelUnavailableError, checkInt8Weight, checkResidualLayerNorm, dequantizeAccumulators, erf64, erfF32, f32Kernel, f32MatMul, f32MatMul64, fusedAttention, fusedAttentionKernel,
  fusedAttentionReference, fusedAttentionTokens, fusedQkvAttention, freezeInt8Weight, geluF32, isFrozenInt8Weight, int8Kernel, int8MatMul, int8MatMulReference, kernelRoute, originalWasmKernel, quantizeRows, quantizeWeightPerChannel,
  residualLayerNormF32, startKernelThreads, checkInputNorm, checkResidual, inputNormF32, int8GatedFeedForward,
} from '@attnkit/kernels';
import type { CatalogueCase } from './catalogue-case.js';
import { variants, type ValidCall } from './positions-cases.js';

/** The labels `variants()` gives each argument position and each option key. */
const POSITION_LABELS = ['undefined', 'null', 'NaN', '{}', '"x"', 'a sparse array [1, , 1]', 'a disposed tensor', 'an int32 tensor', 'a rank-0 float tensor'];
const OPTION_LABELS = ['null', 'NaN', '"x"', '{}', '-1', 'a disposed tensor'];
/** Every hostile value at these positions and option keys accepted, for `reason`. */
export function acceptedEverywhere(reason: string, positions: readonly number[], keys: readonly string[] = []): Record<string, string> {
  return Object.fromEntries([...positions.flatMap((p) => POSITION_LABELS.map((l) => `${p}:${l}`)), ...keys.flatMap((k) => OPTION_LABELS.map((l) => `${k}:${l}`))].map((label) => [label, reason]));
}
/** An error class's constructor: the error must come out an AttnkitError with a message (never a throw while reporting). */
export function built(error: unknown): void {
  if (!(error instanceof AttnkitError) || typeof error.message !== 'string' || error.message.length === 0 || typeof error.code !== 'string') throw new Error('no AttnkitError with a message and a code was built');
}
export const REPORTS = 'an error class builds its error from whatever it is given (every part made text with messageText), so reporting never throws';
const CALLER = 'the caller only names the function in messages';
const NAN_IN = 'NaN in, NaN out (erf and GELU of NaN are NaN, as Math and torch.erf)';

const f = (shape: number[]) => zeros(shape);
const tidyCall = (fn: () => unknown) => tidy(() => { fn(); });
/** An Int8Weight of W [K, M] = [3, 2] (M = 2 output channels of K = 3). */
const int8Weight = () => quantizeWeightPerChannel({ values: Float32Array.of(1, 2, 3, 4, 5, 6), inFeatures: 3, outFeatures: 2 });
/** A residualLayerNorm option for an output [2, 2]. */
const residual = () => ({ residual: f([2, 2]), gamma: ones([2]), beta: f([2]), epsilon: 1e-5 });
const MATMUL_KEYS = ['kernel', 'activation', 'residualLayerNorm'];
const INT8_MATMUL_KEYS = [...MATMUL_KEYS, 'inputNorm', 'residual'];
const ATTENTION_KEYS = ['mask', 'bias', 'scale', 'kernel'];
/** A fused attention problem: B = H = T = 1, S = D = Dv = 2, flat. */
const problem = () => ({ batch: 1, heads: 1, queryLength: 1, keyLength: 2, headDim: 2, valueDim: 2, scale: 1, query: Float32Array.of(1, 0), key: Float32Array.of(1, 0, 0, 1), value: Float32Array.of(1, 2, 3, 4) });

const VALID_CALLS: readonly ValidCall[] = [
  // the products
  { name: 'kernels.int8MatMul', args: () => [f([2, 3]), int8Weight(), f([2]), {}], call: ([x, w, b, o]) => tidyCall(() => int8MatMul(x as Tensor, w as never, b as Tensor, o as never)), optional: [2, 3],
    options: { index: 3, keys: INT8_MATMUL_KEYS } },
  { name: 'kernels.int8GatedFeedForward', args: () => [f([2, 3]), int8Weight(), quantizeWeightPerChannel({ values: Float32Array.of(1, 2), inFeatures: 1, outFeatures: 2 }), {}], // gateUp [2F, K] = [2, 3], down [M, F] = [2, 1]
    call: ([x, g, d, o]) => tidyCall(() => int8GatedFeedForward(x as Tensor, g as never, d as never, o as never)), optional: [3], options: { index: 3, keys: ['gateUpBias', 'downBias', 'inputNorm', 'residual', 'kernel'] } },
  { name: 'kernels.checkInputNorm', args: () => [{ kind: 'rmsNorm', weight: ones([3]), epsilon: 1e-5 }, 3, 'catalogue'], call: ([o, k, c]) => checkInputNorm(o as never, k as number, c as string),
    options: { index: 0, keys: ['kind', 'weight', 'bias', 'epsilon'] }, accepted: acceptedEverywhere(CALLER, [2]) },
  { name: 'kernels.checkResidual', args: () => [f([2, 2]), [2, 2], 'catalogue'], call: ([r, s, c]) => checkResidual(r, s as never, c as string), accepted: acceptedEverywhere(CALLER, [2]) },
  { name: 'kernels.inputNormF32', args: () => [new Float32Array(4), { kind: 'rmsNorm', weight: Float32Array.of(1, 1), epsilon: 1e-5 }, 2, 2],
    call: ([x, v, r, w]) => inputNormF32(x as never, v as never, r as number, w as number), options: { index: 1, keys: ['kind', 'weight', 'bias', 'epsilon'] } },
  { name: 'kernels.f32MatMul', args: () => [f([2, 3]), f([2, 3]), f([2]), {}], call: ([x, w, b, o]) => tidyCall(() => f32MatMul(x as Tensor, w as Tensor, b as Tensor, o as never)), optional: [2, 3],
    options: { index: 3, keys: MATMUL_KEYS } },
  { name: 'kernels.checkResidualLayerNorm', args: () => [residual(), [2, 2], 'catalogue'], call: ([r, s, c]) => checkResidualLayerNorm(r as never, s as never, c as string),
    options: { index: 0, keys: ['residual', 'gamma', 'beta', 'epsilon'] }, accepted: acceptedEverywhere(CALLER, [2]) },
  // kernels by name
  { name: 'kernels.int8Kernel', args: () => ['js', 'catalogue'], call: ([n, c]) => int8Kernel(n as never, c as string), optional: [0], accepted: acceptedEverywhere(CALLER, [1]) },
  { name: 'kernels.f32Kernel', args: () => ['simd', 'catalogue'], call: ([n, c]) => f32Kernel(n as never, c as string), optional: [0], accepted: acceptedEverywhere(CALLER, [1]) },
  { name: 'kernels.fusedAttentionKernel', args: () => ['js', 'catalogue'], call: ([n, c]) => fusedAttentionKernel(n as never, c as string), optional: [0], accepted: acceptedEverywhere(CALLER, [1]) },
  { name: 'kernels.kernelRoute', args: () => ['f32MatMul', []], call: ([k, i]) => kernelRoute(k as never, i as never), optional: [1] },
  // quantization and its references
  { name: 'kernels.quantizeWeightPerChannel', args: () => [{ values: Float32Array.of(1, 2, 3, 4, 5, 6), inFeatures: 3, outFeatures: 2 }], call: ([w]) => quantizeWeightPerChannel(w as never),
    options: { index: 0, keys: ['values', 'inFeatures', 'outFeatures'] } },
  { name: 'kernels.freezeInt8Weight', args: () => [int8Weight()], call: ([w]) => freezeInt8Weight(w as never), options: { index: 0, keys: ['values', 'scales', 'inFeatures', 'outFeatures'] } },
  { name: 'kernels.isFrozenInt8Weight', args: () => [freezeInt8Weight(int8Weight())], call: ([w]) => isFrozenInt8Weight(w),
    accepted: Object.fromEntries(['undefined', 'null', 'NaN', '{}', '"x"', 'a sparse array [1, , 1]', 'a disposed tensor', 'an int32 tensor', 'a rank-0 float tensor'].map((label) => [`0:${label}`, 'answers for any value: false unless it is a frozen Int8Weight'])) },
  { name: 'kernels.checkInt8Weight', args: () => [int8Weight(), 'catalogue', 'weight'], call: ([w, c, a]) => checkInt8Weight(w, c as string, a as string),
    options: { index: 0, keys: ['values', 'scales', 'inFeatures', 'outFeatures'] }, accepted: acceptedEverywhere('the caller and argument only name the weight in messages', [1, 2]) },
  { name: 'kernels.quantizeRows', args: () => [Float32Array.of(0.5, -1, 0.25), 1, 3, 127, 'catalogue', 'x'], call: ([v, r, d, l, c, a]) => quantizeRows(v as never, r as number, d as number, l as never, c as string, a as string),
    accepted: acceptedEverywhere('the caller and argument only name the values in messages', [4, 5]) },
  { name: 'kernels.int8MatMulReference', args: () => [Int8Array.of(1, 2), Int8Array.of(3, 4, -1, 1), { rows: 1, cols: 2, depth: 2 }], call: ([a, b, s]) => int8MatMulReference(a as never, b as never, s as never),
    options: { index: 2, keys: ['rows', 'cols', 'depth'] } },
  { name: 'kernels.dequantizeAccumulators', args: () => [Int32Array.of(254), Float32Array.of(0.5), Float32Array.of(0.01), Float32Array.of(0)], call: ([a, r, c, b]) => dequantizeAccumulators(a as never, r as never, c as never, b as never), optional: [3] },
  { name: 'kernels.residualLayerNormF32', args: () => [new Float32Array(4), { residual: Float32Array.of(1, 2, 3, 4), gamma: Float32Array.of(1, 1), beta: new Float32Array(2), epsilon: 1e-5 }, 2, 2],
    call: ([o, v, r, w]) => residualLayerNormF32(o as never, v as never, r as number, w as number), options: { index: 1, keys: ['residual', 'gamma', 'beta', 'epsilon'] } },
  { name: 'kernels.f32MatMul64', args: () => [new Float32Array(6), 2, new Float32Array(6), 2, 3, new Float32Array(2)], call: ([x, r, w, c, d, b]) => f32MatMul64(x as never, r as number, w as never, c as number, d as number, b as never), optional: [5] },
  { name: 'kernels.erfF32', args: () => [0.5], call: ([x]) => erfF32(x as number), accepted: { '0:NaN': NAN_IN } },
  { name: 'kernels.geluF32', args: () => [0.5], call: ([x]) => geluF32(x as number), accepted: { '0:NaN': NAN_IN } },
  { name: 'kernels.erf64', args: () => [0.5], call: ([x]) => erf64(x as number), accepted: { '0:NaN': NAN_IN } },
  // fused attention
  { name: 'kernels.fusedAttention', args: () => [f([1, 2, 3, 4]), f([1, 2, 5, 4]), f([1, 2, 5, 4]), {}], call: ([q, k, v, o]) => tidyCall(() => fusedAttention(q as Tensor, k as Tensor, v as Tensor, o as never)), optional: [3],
    options: { index: 3, keys: ATTENTION_KEYS }, accepted: { 'scale:-1': 'any finite scale multiplies the scores (a negative one too, as torch\'s scale=)' } },
  { name: 'kernels.fusedQkvAttention', args: () => [f([1, 3, 24]), 2, {}], call: ([x, h, o]) => tidyCall(() => fusedQkvAttention(x as Tensor, h as number, o as never)), optional: [2],
    options: { index: 2, keys: ATTENTION_KEYS }, accepted: { 'scale:-1': 'any finite scale multiplies the scores (a negative one too, as torch\'s scale=)' } },
  { name: 'kernels.fusedAttentionTokens', args: () => [f([1, 3, 8]), f([1, 5, 8]), f([1, 5, 8]), 2, {}], call: ([q, k, v, h, o]) => tidyCall(() => fusedAttentionTokens(q as Tensor, k as Tensor, v as Tensor, h as number, o as never)), optional: [4],
    options: { index: 4, keys: ATTENTION_KEYS }, accepted: { 'scale:-1': 'any finite scale multiplies the scores (a negative one too, as torch\'s scale=)' } },
  { name: 'kernels.fusedAttentionReference', args: () => [problem()], call: ([p]) => fusedAttentionReference(p as never),
    options: { index: 0, keys: ['batch', 'heads', 'queryLength', 'keyLength', 'headDim', 'valueDim', 'scale', 'query', 'key', 'value', 'mask', 'bias', 'layout'] },
    accepted: { 'scale:-1': 'any scale multiplies the scores (a negative one too)' } },
  // the rest
  { name: 'kernels.originalWasmKernel', args: () => ['Erf'], call: ([n]) => originalWasmKernel(n as string), accepted: { '0:"x"': 'a kernel name: undefined where attnkit replaced no kernel of that name (documented)' } },
  { name: 'kernels.startKernelThreads', args: () => [{ threads: 1 }], call: ([o]) => startKernelThreads(o as never), optional: [0], options: { index: 0, keys: ['threads'] } },
  { name: 'kernels.KernelUnavailableError', args: () => [{ caller: 'f', kernel: 'simd', supported: ['js'], hint: 'h' }], call: ([d]) => built(new KernelUnavailableError(d as never)),
    options: { index: 0, keys: ['caller', 'kernel', 'supported', 'hint'] }, accepted: acceptedEverywhere(REPORTS, [0], ['caller', 'kernel', 'supported', 'hint']) },
  { name: 'kernels.InferenceOnlyError', args: () => [{ caller: 'f', hint: 'h' }], call: ([d]) => built(new InferenceOnlyError(d as never)),
    options: { index: 0, keys: ['caller', 'hint'] }, accepted: acceptedEverywhere(REPORTS, [0], ['caller', 'hint']) },
];

/** The kernels package's exports that take no argument: no position to give a hostile value. */
export const positionsExempt: Record<string, string> = Object.fromEntries([
  'defaultKernelThreads', 'engineState', 'webglContext', 'webgpuStorageBufferLimit', 'fillWasmKernels', 'kernelThreads', 'kernelThreadsReady', 'stopKernelThreads', 'fusedAttentionKernels', 'int8Kernels', 'f32Kernels',
].map((name) => [`kernels.${name}`, 'takes no arguments: there is no argument position or option to give a hostile value']));

/** The kernels package's calls (products, fused attention, quantization and the references the kernels are tested against, kernels by name, its errors), every argument position and option key; Node only, on cpu. */
export const kernelsPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
