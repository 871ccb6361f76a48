import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { kernelRoute, type InputNormOption } from '@attnkit/kernels';
import { InvalidArgumentError, checkTensor, describeValue } from '@attnkit/errors';
import { Int8Linear } from './int8-linear.js';
import { LayerNorm } from './layer-norm.js';
import { Linear } from './linear.js';
import type { LinearFusion } from './linear-fusion.js';
import { RMSNorm } from './rms-norm.js';

/** A norm module a block may apply to its input first (a pre-norm decoder's `input_layernorm`, `ln_1`). */
export interface InputNormModule {
  forward(x: Tensor): Tensor;
}

/**
 * Checks a block's `inputNorm` call option: absent, or a module with `forward(x)` (`RMSNorm`,
 * `LayerNorm`, `GemmaRMSNorm`, ...); returns it or throws `InvalidArgumentError`.
 *
 * @example
 * const norm = checkInputNormModule(options.inputNorm, 'GatedFeedForward.forward');
 */
export function checkInputNormModule(norm: unknown, caller: string): InputNormModule | undefined {
  if (norm === undefined) return undefined;
  if (typeof norm !== 'object' || norm === null || typeof (norm as InputNormModule).forward !== 'function') {
    throw new InvalidArgumentError({ caller, argument: 'inputNorm', expected: 'a norm module with forward(x) (RMSNorm, LayerNorm, ...) or absent', received: describeValue(norm) });
  }
  return norm as InputNormModule;
}

/**
 * The `inputNorm` option of `int8MatMul` that computes `norm.forward(x)` inside the product, bit
 * for bit: for an `RMSNorm` or an affine `LayerNorm` (weight and bias) where that module's own
 * forward runs the wasm backend's kernel (`kernelRoute`), whose arithmetic the product's prologue
 * shares; undefined otherwise (then apply `norm.forward(x)` first).
 *
 * Shapes: `x [..., E]`, the norm's weight (and bias) `[E]`.
 *
 * @example
 * const fused = int8InputNorm(layer.inputLayernorm, hidden); // { kind: 'rmsNorm', weight, epsilon } on wasm
 * const y = int8MatMul(fused === undefined ? layer.inputLayernorm.forward(hidden) : hidden, weight, bias, fused === undefined ? {} : { inputNorm: fused });
 */
export function int8InputNorm(norm: InputNormModule | undefined, x: Tensor): InputNormOption | undefined {
  const caller = 'int8InputNorm';
  checkInputNormModule(norm, caller);
  checkTensor(x, { caller, argument: 'x', dtype: 'float32', shape: '[..., E]' });
  if (x.rank === 0) throw new InvalidArgumentError({ caller, argument: 'x', expected: 'a float32 tensor [..., E] of rank ≥ 1', received: 'a scalar (rank 0)' });
  if (norm instanceof RMSNorm && !norm.isDisposed && norm.constructor === RMSNorm && kernelRoute('rmsNorm', [x, norm.weight]).useKernel) {
    return { kind: 'rmsNorm', weight: norm.weight, epsilon: norm.eps };
  }
  if (norm instanceof LayerNorm && !norm.isDisposed && norm.constructor === LayerNorm && norm.weight !== undefined && norm.bias !== undefined && kernelRoute('layerNorm', [x, norm.weight, norm.bias]).useKernel) {
    return { kind: 'layerNorm', weight: norm.weight, bias: norm.bias, epsilon: norm.eps };
  }
  return undefined;
}

/**
 * `layer.forward(norm.forward(x), fusion)` (or `layer.forward(x, fusion)` without a norm) with the
 * same numbers, the norm inside the int8 product where `layer` is an `Int8Linear` and
 * {@link int8InputNorm} allows: a pre-norm block's first projection (GPT-2's `ln_1` and `c_attn`) in one call.
 *
 * Shapes: `x [..., in]` → `[..., out]`.
 *
 * @example
 * const qkv = linearWithInputNorm(block.attn.cAttn, hidden, block.ln1); // [B, T, E] -> [B, T, 3E]
 */
export function linearWithInputNorm(layer: Linear | Int8Linear, x: Tensor, norm: InputNormModule | undefined, fusion: LinearFusion = {}): Tensor {
  const caller = 'linearWithInputNorm';
  if (!(layer instanceof Int8Linear) && !(layer instanceof Linear)) throw new InvalidArgumentError({ caller, argument: 'layer', expected: 'a Linear or an Int8Linear', received: describeValue(layer) });
  checkInputNormModule(norm, caller);
  if (norm === undefined) return layer.forward(x, fusion);
  const inputNorm = layer instanceof Int8Linear ? int8InputNorm(norm, x) : undefined;
  if (inputNorm !== undefined) return (layer as Int8Linear).forward(x, { ...fusion, inputNorm });
  return tidy(() => layer.forward(norm.forward(x), fusion));
}
