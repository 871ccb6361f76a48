import type { Tensor, Variable } from '@tensorflow/tfjs-core';
import { checkObject, checkOptionKeys, describeValue, InvalidArgumentError, isTensorLike } from '@attnkit/errors';
import { checkInt8Weight, freezeInt8Weight, int8MatMul, INT8_KERNEL_NAMES, quantizeWeightPerChannel, type InputNormOption, type Int8MatMulOptions, type Int8Weight } from '@attnkit/kernels';
import { Module } from '../module/module.js';
import { checkWidth } from './check-width.js';
import { Linear } from './linear.js';
import { checkLinearFusion, type LinearFusion } from './linear-fusion.js';

/** What `Int8Linear.forward` may fuse: {@link LinearFusion}, and `inputNorm` (`int8MatMul`'s: each row of `x` normalized first, e.g. from `int8InputNorm`). */
export type Int8LinearFusion = LinearFusion & { readonly inputNorm?: InputNormOption | undefined };

/** Checks the options of an {@link Int8Linear} when it is built, not at its first forward: int8MatMul's options, `kernel` a name of INT8_KERNEL_NAMES. */
function checkInt8LinearOptions(options: unknown, caller: string): void {
  checkObject(options, { caller, argument: 'options', expected: 'an object { kernel? } (int8MatMul options)' });
  const { kernel } = checkOptionKeys(options as Int8MatMulOptions, ['kernel', 'activation', 'residualLayerNorm'], caller);
  if (kernel !== undefined && !(INT8_KERNEL_NAMES as readonly unknown[]).includes(kernel)) {
    throw new InvalidArgumentError({ caller, argument: 'kernel', expected: `one of ${INT8_KERNEL_NAMES.map((name) => `'${name}'`).join(', ')} (or absent: the fastest this backend has)`, received: describeValue(kernel) });
  }
}

/**
 * An inference-only `Linear` on int8 arithmetic: the same forward contract
 * (`x [..., in]` → `[..., out]`, `y ≈ x Wᵀ + b`), with the weight quantized per output channel
 * (`Int8Weight`, int8 `[out, in]` + scales `[out]`) and each row of `x` quantized on the fly by
 * `@attnkit/kernels`' `int8MatMul` (wasm SIMD or relaxed SIMD; about 1% relative error on
 * LayerNorm-scale inputs). The bias stays float32 and is the module's only parameter (`bias`), so
 * a state dict holds no `weight`: load float weights into the float model, then quantize
 * (`fromLinear`, `quantizeLinearLayers`), or build it from int8 values a checkpoint stores (the
 * constructor takes them as they are, into a frozen copy of its own; `loadInt8LinearLayers` does it for a model).
 * Inference only: `train()` and a forward in training mode throw `InvalidArgumentError`.
 *
 * @example
 * const int8 = Int8Linear.fromLinear(new Linear(384, 1536));
 * int8.forward(x); // [B, T, 384] -> [B, T, 1536]
 * const stored = new Int8Linear({ values, scales, inFeatures: 384, outFeatures: 1536 }, bias); // int8 [1536, 384], scales [1536]
 */
export class Int8Linear extends Module {
  readonly inFeatures: number;
  readonly outFeatures: number;
  /**
   * The quantized weight: `values` int8 `[out, in]`, `scales` `[out]`, frozen (`freezeInt8Weight`):
   * the layer keeps its own copy, so its products never compare bytes, and `weight.values` /
   * `weight.scales` read copies (changing them changes nothing; build a new layer for new values).
   */
  readonly weight: Int8Weight;
  readonly bias: Variable | undefined;
  /** Forces an int8 kernel (tests, benchmarks); default the fastest the engine runs. */
  readonly options: Int8MatMulOptions;

  constructor(weight: Int8Weight, bias?: Tensor, options: Int8MatMulOptions = {}) {
    super();
    checkInt8LinearOptions(options, 'Int8Linear'); // before the weight is checked and copied
    this.weight = freezeInt8Weight(checkInt8Weight(weight, 'Int8Linear', 'weight')); // checked before anything is registered (a bad weight leaks nothing); a private copy
    if (bias !== undefined && (!isTensorLike(bias) || bias.rank !== 1 || bias.shape[0] !== weight.outFeatures)) throw new InvalidArgumentError({ caller: 'Int8Linear', argument: 'bias', expected: `a tensor [out] = [${weight.outFeatures}]`, received: describeValue(bias) });
    this.inFeatures = weight.inFeatures;
    this.outFeatures = weight.outFeatures;
    this.options = options;
    this.bias = bias === undefined ? undefined : this.registerParameter('bias', bias.clone(), { trainable: false });
  }

  /** Quantizes a float `Linear` (its `weight [out, in]`, PyTorch layout); the Linear is left as it is. */
  static fromLinear(linear: Linear, options: Int8MatMulOptions = {}): Int8Linear {
    if (!(linear instanceof Linear)) throw new InvalidArgumentError({ caller: 'Int8Linear.fromLinear', argument: 'linear', expected: 'a Linear', received: describeValue(linear) });
    checkInt8LinearOptions(options, 'Int8Linear.fromLinear'); // before the weight is read and quantized
    const values = linear.weight.dataSync() as Float32Array; // [out, in]
    const weight = quantizeWeightPerChannel({ values, inFeatures: linear.inFeatures, outFeatures: linear.outFeatures });
    return new Int8Linear(weight, linear.bias, options);
  }

  /** Refuses training mode: the int8 weight has no gradient. `train(false)` (= `eval()`) is fine. */
  override train(mode = true): this {
    if (mode === true) throw Int8Linear.#inferenceOnly('Int8Linear.train');
    return super.train(mode);
  }

  /**
   * `x [..., in]` → `[..., out]`. With `{ activation: 'gelu' }`, exact GELU of the output is
   * applied inside the int8 kernel (one pass; the numbers of the wasm backend's GELU kernel); with
   * `{ residualLayerNorm: { residual, gamma, beta, epsilon } }`, each output row then becomes
   * `LayerNorm(row + residual) · gamma + beta` there; with `{ residual }`, `residual` is added to
   * the output there; with `{ inputNorm }`, each row of `x` is normalized first (see `int8MatMul`).
   *
   * @example
   * int8.forward(x, { activation: 'gelu' }); // = GELU(int8.forward(x)), fused
   * int8.forward(x, { residual: hidden });   // = add(int8.forward(x), hidden), fused
   * int8.forward(x, { inputNorm: int8InputNorm(ln1, x) }); // = int8.forward(ln1.forward(x)), fused (on wasm)
   */
  forward(x: Tensor, options: Int8LinearFusion = {}): Tensor {
    const caller = 'Int8Linear.forward';
    this.assertLive(caller);
    if (this.training) throw Int8Linear.#inferenceOnly(caller); // a parent's train() reaches here without calling ours
    const { activation, residualLayerNorm, residual, inputNorm } = checkLinearFusion(options, caller, ['inputNorm']);
    const fused = { ...(activation === undefined ? {} : { activation }), ...(residualLayerNorm === undefined ? {} : { residualLayerNorm }), ...(residual === undefined ? {} : { residual }), ...(inputNorm === undefined ? {} : { inputNorm }) };
    return int8MatMul(checkWidth(x, caller, 'x', this.inFeatures, 'inFeatures'), this.weight, this.bias, { ...this.options, ...fused });
  }

  static #inferenceOnly(caller: string): InvalidArgumentError {
    return new InvalidArgumentError({ caller, argument: 'mode', expected: 'eval mode (Int8Linear is inference only: its int8 weight has no gradient)', received: 'training mode', hint: 'Train the float model, then quantize it; call eval() on the tree.' });
  }
}
