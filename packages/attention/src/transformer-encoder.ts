import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkBoolean, checkInteger, checkObject, checkOptionKeys, checkTensor, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { LayerNorm, Module, ModuleList } from '@attnkit/nn';
import { TransformerEncoderLayer, type EncoderLayerCallOptions } from './transformer-encoder-layer.js';
import { callWithTorchMasks, type TorchEncoderCallOptions } from './call-with-torch-masks.js';
import type { TransformerEncoderLayerConfig } from './transformer-encoder-layer-config.js';

/** Configuration of {@link TransformerEncoder}: the layer's config, the depth, and an optional final norm. */
export interface TransformerEncoderConfig extends TransformerEncoderLayerConfig {
  /** N, the number of layers (PyTorch `num_layers`). */
  readonly numLayers: number;
  /** A LayerNorm after the last layer (PyTorch `norm=nn.LayerNorm(E)`; pre-LN stacks want it). Default false. */
  readonly finalNorm?: boolean;
}

/** Options of {@link TransformerEncoder.forward}. */
export interface EncoderCallOptions extends Omit<EncoderLayerCallOptions, 'outputAttentions'> {
  /**
   * Return the input and every layer's output (N + 1 tensors `[B, T, E]`, before the final norm).
   * Without a final norm the last of them is the same tensor as `lastHiddenState` (as in PyTorch and
   * Hugging Face): dispose each tensor once.
   */
  readonly outputHiddenStates?: boolean;
  /** Return every layer's attention weights (N tensors `[B, H, T, T]`). */
  readonly outputAttentions?: boolean;
}

/** What {@link TransformerEncoder.forward} returns; the caller disposes it. */
export interface EncoderResult {
  /** `[B, T, E]`, after the final norm when there is one. */
  readonly lastHiddenState: Tensor;
  readonly hiddenStates?: Tensor[];
  readonly attentions?: Tensor[];
}

/**
 * A stack of {@link TransformerEncoderLayer}s equal to `torch.nn.TransformerEncoder`
 * (`enable_nested_tensor=False`): parameters `layers.N.*` and, with `finalNorm`, `norm.*`. Each
 * layer is initialised on its own (PyTorch deep-copies one layer; load a state dict to match one).
 *
 * `x [B, T, E]` → `lastHiddenState [B, T, E]`.
 *
 * @example
 * const encoder = new TransformerEncoder({ embedDim: 64, numHeads: 4, feedForwardDim: 256, numLayers: 2, normFirst: true, finalNorm: true });
 * const { lastHiddenState } = encoder.forward(x, { attentionMask: paddingMask(lengths, T) });
 */
export class TransformerEncoder extends Module {
  readonly layers: ModuleList<TransformerEncoderLayer>;
  readonly norm: LayerNorm | undefined;

  constructor(config: TransformerEncoderConfig) {
    super();
    checkObject(config, { caller: 'TransformerEncoder', argument: 'config', expected: 'a TransformerEncoderConfig object ({ numLayers, embedDim, numHeads, ... })' });
    const numLayers = checkInteger(config.numLayers, { caller: 'TransformerEncoder', argument: 'numLayers', min: 1 });
    const finalNorm = config.finalNorm === undefined ? false : config.finalNorm; // null is no boolean: refused
    if (typeof finalNorm !== 'boolean') throw new InvalidArgumentError({ caller: 'TransformerEncoder', argument: 'finalNorm', expected: 'a boolean', received: describeValue(finalNorm) });
    [this.layers, this.norm] = this.guard(() => {
      const built: TransformerEncoderLayer[] = [];
      try {
        for (let n = 0; n < numLayers; n++) built.push(new TransformerEncoderLayer({ ...config, ...(config.seed === undefined ? {} : { seed: config.seed + 100 * n }) }));
      } catch (error) {
        built.forEach((layer) => layer.dispose());
        throw error;
      }
      const layers = this.registerModule('layers', new ModuleList(built));
      const norm = finalNorm ? this.registerModule('norm', new LayerNorm(config.embedDim, { eps: config.layerNormEps ?? 1e-5 })) : undefined;
      return [layers, norm] as const;
    });
  }

  /** `x [B, T, E]` → `{ lastHiddenState [B, T, E], hiddenStates?, attentions? }`. */
  forward(x: Tensor, options: EncoderCallOptions = {}): EncoderResult {
    const caller = 'TransformerEncoder.forward';
    this.assertLive(caller);
    checkOptionKeys(options, ['attentionMask', 'attentionBias', 'outputHiddenStates', 'outputAttentions'], caller);
    const outputHiddenStates = checkBoolean(options.outputHiddenStates, { caller, argument: 'outputHiddenStates', fallback: false });
    const outputAttentions = checkBoolean(options.outputAttentions, { caller, argument: 'outputAttentions', fallback: false });
    checkTensor(x, { caller, argument: 'x', dtype: 'float32', rank: 3, shape: '[B, T, E]' }); // named here, not by the first layer
    return tidy(() => {
      const hiddenStates: Tensor[] = [x];
      const attentions: Tensor[] = [];
      let hidden = x;
      for (const layer of this.layers) {
        const { output, attentionWeights } = layer.forward(hidden, { attentionMask: options.attentionMask, attentionBias: options.attentionBias, outputAttentions });
        if (attentionWeights !== undefined) attentions.push(attentionWeights); // [B, H, T, T]
        hiddenStates.push(output);
        hidden = output;
      }
      const lastHiddenState = this.norm === undefined ? hidden : this.norm.forward(hidden);
      return {
        lastHiddenState,
        ...(outputHiddenStates ? { hiddenStates: hiddenStates.map((h) => (h === x ? h.clone() : h)) } : {}),
        ...(outputAttentions ? { attentions } : {}),
      };
    });
  }

  /** The `torch.nn.TransformerEncoder.forward(src, mask, src_key_padding_mask)` call (see `TransformerEncoderLayer.forwardTorch`). */
  forwardTorch(src: Tensor, options: TorchEncoderCallOptions = {}): Tensor {
    const caller = 'TransformerEncoder.forwardTorch';
    this.assertLive(caller);
    return callWithTorchMasks(caller, src, options, this.layers.at(0).selfAttn.config.numHeads, (x, mask, bias) => this.forward(x, { attentionMask: mask, attentionBias: bias }).lastHiddenState);
  }
}
