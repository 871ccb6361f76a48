import { concat, engine, mul, split, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { SILU_MUL_KERNEL, int8GatedFeedForward, int8MatMul, kernelRoute, type InputNormOption, type Int8KernelName, type Int8Weight } from '@attnkit/kernels';
import { checkBoolean, checkInteger, checkObject, checkOptionKeys } from '@attnkit/errors';
import { Module } from '../module/module.js';
import { activationByName, type ActivationFunction } from '../ops/activation-by-name.js';
import { checkWidth } from './check-width.js';
import { fusedInt8Weight, int8Fusable } from './fused-int8-weight.js';
import type { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';
import { checkInputNormModule, int8InputNorm, type InputNormModule } from './input-norm-fusion.js';

/** Configuration of {@link GatedFeedForward}. */
export interface GatedFeedForwardConfig {
  /** E, the input and output width (Hugging Face `hidden_size`). */
  readonly embedDim: number;
  /** The hidden width (Hugging Face `intermediate_size`). */
  readonly feedForwardDim: number;
  /** The gate's activation, a Hugging Face `hidden_act` name or a function (default `'silu'`: SwiGLU; `'gelu_pytorch_tanh'`: Gemma's GeGLU). */
  readonly activation?: string | ActivationFunction;
  /** Biases on the three projections (Hugging Face `mlp_bias`, default false). */
  readonly bias?: boolean;
  /** Seed of the initialisation (gate_proj: `seed`, up_proj: `seed + 2`, down_proj: `seed + 4`). */
  readonly seed?: number;
}

/** Options of {@link GatedFeedForward.forward}. */
export interface GatedFeedForwardCallOptions {
  /** A norm module (`RMSNorm`, ...) applied to `x` first: `mlp(inputNorm(x))`. */
  readonly inputNorm?: InputNormModule | undefined;
  /** `[..., E]`, added to the output: `residual + mlp(...)`. */
  readonly residual?: Tensor | undefined;
}

const CONFIG_KEYS = ['embedDim', 'feedForwardDim', 'activation', 'bias', 'seed'];

/**
 * The gated feed-forward block of Llama-style decoders (`LlamaMLP`; SwiGLU with `silu`, GeGLU with
 * a GELU): `down_proj(act(gate_proj(x)) * up_proj(x))`. Children named as in the checkpoints:
 * `gate_proj` and `up_proj` (`[F, E]`), `down_proj` (`[E, F]`), biases only with `bias`.
 *
 * `x [..., E]` → `[..., E]` (through `[..., F]`, F = `feedForwardDim`).
 *
 * @example
 * const mlp = new GatedFeedForward({ embedDim: 2048, feedForwardDim: 8192, activation: 'silu' });
 * mlp.forward(x); // [B, T, 2048]
 */
export class GatedFeedForward extends Module {
  readonly gateProj: Linear;
  readonly upProj: Linear;
  readonly downProj: Linear;
  readonly activation: ActivationFunction;
  /** The activation is SiLU (SwiGLU): an int8 forward runs `int8GatedFeedForward` (or, with a float down_proj, `SILU_MUL_KERNEL` on wasm). */
  readonly #silu: boolean;

  constructor(config: GatedFeedForwardConfig) {
    super();
    const caller = 'GatedFeedForward';
    checkObject(config, { caller, argument: 'config', expected: 'a GatedFeedForwardConfig object ({ embedDim, feedForwardDim, ... })' });
    checkOptionKeys(config, CONFIG_KEYS, caller, 'config');
    const embedDim = checkInteger(config.embedDim, { caller, argument: 'embedDim', min: 1 });
    const feedForwardDim = checkInteger(config.feedForwardDim, { caller, argument: 'feedForwardDim', min: 1 });
    const bias = checkBoolean(config.bias, { caller, argument: 'bias', fallback: false });
    this.activation = activationByName(config.activation === undefined ? 'silu' : config.activation, caller);
    this.#silu = config.activation === undefined || config.activation === 'silu' || config.activation === 'swish';
    const seed = config.seed === undefined ? undefined : checkInteger(config.seed, { caller, argument: 'seed' });
    const options = (offset: number) => ({ bias, ...(seed === undefined ? {} : { seed: seed + offset }) });
    [this.gateProj, this.upProj, this.downProj] = this.guard(() => [
      this.registerModule('gate_proj', new Linear(embedDim, feedForwardDim, options(0))),
      this.registerModule('up_proj', new Linear(embedDim, feedForwardDim, options(2))),
      this.registerModule('down_proj', new Linear(feedForwardDim, embedDim, options(4))),
    ] as const);
  }

  /**
   * `x [..., E]` → `[..., E]`. When `gate_proj` and `up_proj` are `Int8Linear`s that can run as one
   * product (`quantizeLinearLayers`), they do: one int8 product `[..., 2F]`, bit for bit the two;
   * with SiLU and an int8 `down_proj` the whole block is one `int8GatedFeedForward` call (on wasm
   * one call into the kernels' memory, `silu(gate) · up` between the products; the same numbers as
   * the product, `SILU_MUL_KERNEL` and `down_proj`).
   *
   * Options (a pre-norm decoder's block in one call, the same numbers as the ops): `inputNorm`, a
   * norm module applied to `x` first (`post_attention_layernorm`; inside the int8 product where
   * `int8InputNorm` allows), and `residual [..., E]`, added to the output (inside `down_proj`'s
   * product where it is int8): `residual + mlp(inputNorm(x))`.
   *
   * @example
   * mlp.forward(x);                                                // [B, T, E]
   * mlp.forward(h, { inputNorm: postAttentionLayernorm, residual: h }); // h + mlp(norm(h))
   */
  forward(x: Tensor, options: GatedFeedForwardCallOptions = {}): Tensor {
    const caller = 'GatedFeedForward.forward';
    this.assertLive(caller);
    checkObject(options, { caller, argument: 'options', expected: 'an object { inputNorm?, residual? }' });
    checkOptionKeys(options, ['inputNorm', 'residual'], caller);
    const norm = checkInputNormModule(options.inputNorm, caller);
    const { residual } = options;
    return tidy(() => {
      const down = (hidden: Tensor) => this.downProj.forward(hidden, residual === undefined ? {} : { residual }); // [..., F] -> [..., E] (+ residual)
      if (!int8Fusable([this.gateProj, this.upProj])) {
        const input = norm === undefined ? x : norm.forward(x);
        return down(mul(this.activation(this.gateProj.forward(input)), this.upProj.forward(input))); // [..., E] -> [..., F] -> [..., E]
      }
      const fusedNorm = int8InputNorm(norm, x);
      const input = norm === undefined || fusedNorm !== undefined ? x : norm.forward(x);
      if (this.#silu && this.#int8Down()) return this.#int8Block(input, fusedNorm, residual); // the three products and silu · up in one call (the same numbers)
      const both = this.#int8GateUp(input, fusedNorm); // [..., 2F]: the gate's columns, then up's
      const hidden = this.#silu && kernelRoute('siluMul', [both]).useKernel
        ? engine().runKernel(SILU_MUL_KERNEL, { x: both }) as Tensor // silu(gate) · up in one pass (wasm)
        : ((([gate, up]) => mul(this.activation(gate!), up!))(split(both, 2, -1))); // [..., F]
      return down(hidden);
    });
  }

  /** Whether down_proj is an Int8Linear that int8GatedFeedForward runs as its own forward would: live, in eval mode, gate's kernel, no fused activation of its own. */
  #int8Down(): boolean {
    const down = this.downProj as unknown as Int8Linear;
    return int8Fusable([down]) && down.options.kernel === (this.gateProj as unknown as Int8Linear).options.kernel && down.options.activation === undefined && down.options.residualLayerNorm === undefined;
  }

  /** The SwiGLU block on int8 weights: `int8GatedFeedForward` (gate and up stacked, then down; + residual). */
  #int8Block(x: Tensor, inputNorm: InputNormOption | undefined, residual: Tensor | undefined): Tensor {
    const { weight, bias, kernel } = this.#stackedGateUp(x);
    const down = this.downProj as unknown as Int8Linear;
    return int8GatedFeedForward(x, weight, down.weight, {
      ...(bias === undefined ? {} : { gateUpBias: bias }), ...(down.bias === undefined ? {} : { downBias: down.bias }),
      ...(inputNorm === undefined ? {} : { inputNorm }), ...(residual === undefined ? {} : { residual }), ...kernel,
    });
  }

  /** gate_proj and up_proj as one int8 product: `[..., 2F]`, the gate's F columns first (x normalized inside with `inputNorm`). */
  #int8GateUp(x: Tensor, inputNorm: InputNormOption | undefined): Tensor {
    const { weight, bias, kernel } = this.#stackedGateUp(x);
    return int8MatMul(x, weight, bias, { ...kernel, ...(inputNorm === undefined ? {} : { inputNorm }) });
  }

  /** gate_proj and up_proj stacked: one int8 weight `[2F, E]` (the gate's rows first), their biases `[2F]` (or none), the gate's kernel option; x's width checked. */
  #stackedGateUp(x: Tensor): { weight: Int8Weight; bias: Tensor | undefined; kernel: { kernel?: Int8KernelName } } {
    const [gate, up] = [this.gateProj, this.upProj] as unknown as [Int8Linear, Int8Linear];
    checkWidth(x, 'GatedFeedForward.forward', 'x', gate.inFeatures, 'embedDim');
    const bias = gate.bias === undefined ? undefined : concat([gate.bias, up.bias as Tensor]); // [2F]
    return { weight: fusedInt8Weight([gate, up]), bias, kernel: gate.options.kernel === undefined ? {} : { kernel: gate.options.kernel } };
  }
}
