import type { Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import type { InputNormValues } from './input-norm-f32.js';

/**
 * The `inputNorm` option of `int8MatMul`: each row of `x [..., K]` normalized before it is
 * quantized, inside the kernel (a pre-norm decoder's `input_layernorm` or `ln_1` and the product
 * it feeds in one call). `'rmsNorm'`: `x / √(mean(x²) + epsilon) · weight`, transformers'
 * LlamaRMSNorm (`epsilon` > 0); `'layerNorm'`: `(x − mean) / √(var + epsilon) · weight + bias`
 * (biased variance, `epsilon` ≥ 0). `weight`, `bias` `[K]` float32. The numbers are those of the
 * wasm backend's RMSNorm and LayerNorm kernels, bit for bit.
 */
export interface InputNormOption {
  readonly kind: 'rmsNorm' | 'layerNorm';
  readonly weight: Tensor;
  /** `'layerNorm'` only (required there). */
  readonly bias?: Tensor;
  readonly epsilon: number;
}

/**
 * Checks an {@link InputNormOption} against the product's depth `K`, or throws
 * `InvalidArgumentError` naming the field that is off.
 *
 * @example
 * checkInputNorm({ kind: 'rmsNorm', weight, epsilon: 1e-5 }, 576, 'int8MatMul');
 */
export function checkInputNorm(option: InputNormOption, depth: number, caller: string): void {
  checkInteger(depth, { caller: 'checkInputNorm', argument: 'depth', min: 0 }); // K, the product's
  checkObject(option, { caller, argument: 'inputNorm', expected: "an object { kind: 'rmsNorm' | 'layerNorm', weight, bias?, epsilon }" });
  const { kind } = checkOptionKeys(option, ['kind', 'weight', 'bias', 'epsilon'], caller, 'inputNorm');
  if (kind !== 'rmsNorm' && kind !== 'layerNorm') throw new InvalidArgumentError({ caller, argument: 'inputNorm.kind', expected: "'rmsNorm' or 'layerNorm'", received: describeValue(kind) });
  const names = kind === 'layerNorm' ? (['weight', 'bias'] as const) : (['weight'] as const);
  if (kind === 'rmsNorm' && option.bias !== undefined) throw new InvalidArgumentError({ caller, argument: 'inputNorm.bias', expected: "no bias with kind 'rmsNorm' (RMSNorm has none)", received: describeValue(option.bias) });
  for (const name of names) {
    checkTensor(option[name], { caller, argument: `inputNorm.${name}`, dtype: 'float32', rank: 1, shape: '[K]' });
    if ((option[name] as Tensor).shape[0] !== depth) throw new InvalidArgumentError({ caller, argument: `inputNorm.${name}`, expected: `a float32 tensor [K] with K = ${depth} (the last axis of 'x')`, received: formatShape((option[name] as Tensor).shape) });
  }
  const { epsilon } = option;
  const positive = kind === 'rmsNorm';
  if (typeof epsilon !== 'number' || !Number.isFinite(epsilon) || (positive ? !(epsilon > 0) : !(epsilon >= 0))) {
    throw new InvalidArgumentError({ caller, argument: 'inputNorm.epsilon', expected: `a finite number ${positive ? '> 0' : '≥ 0'} (the norm's eps)`, received: describeValue(epsilon) });
  }
}

/**
 * The option's values for a kernel, `read` giving each tensor's values; undefined without the option.
 *
 * @example
 * inputNormValues(options.inputNorm, (t) => t.dataSync() as Float32Array);
 */
export function inputNormValues(option: InputNormOption | undefined, read: (t: Tensor) => Float32Array): InputNormValues | undefined {
  if (option === undefined) return undefined;
  return { kind: option.kind, weight: read(option.weight), ...(option.bias === undefined ? {} : { bias: read(option.bias) }), epsilon: option.epsilon };
}
