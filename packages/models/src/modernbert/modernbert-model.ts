import { add, mul, split, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { applyRotary, mergeHeads, splitHeads } from '@attnkit/attention';
import { InvalidArgumentError, checkInteger, checkObject, describeValue } from '@attnkit/errors';
import { Dropout, Embedding, LayerNorm, Linear, Module, ModuleList, activationByName, skipInitialization, type ActivationFunction, type StateDictSource } from '@attnkit/nn';
import { checkModelType } from '../encoder/check-model-type.js';
import type { Encoder, EncoderInputs, EncoderOutputs } from '../encoder/encoder.js';
import { attendHeads, encoderForward, type LayerCallOptions } from '../encoder/encoder-forward.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import type { ModernBertConfig, ModernBertLayerType } from './modernbert-config.js';
import { modernBertEncoderParts, type ModernBertAttentionInputs } from './modernbert-encoder-parts.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';
import { checkLayerCall, checkRotaryTables } from '../encoder/check-layer-call.js';
import { checkEmbeddingIds } from '../encoder/check-encoder-inputs.js';

// The module tree mirrors transformers' modeling_modernbert (`layers.1.attn.Wqkv.weight`), so a
// parameter's dotted path is its checkpoint key: loading is `loadStateDict`.

const CONFIG = { argument: 'config', expected: 'a parsed ModernBERT config (parseModernBertConfig)' } as const;

/**
 * `embeddings`: token embeddings, then a LayerNorm (`norm`, bias only with `norm_bias`) and dropout;
 * no positions (the layers rotate queries and keys) and no token types. `ids [B, T]` → `[B, T, E]`.
 *
 * @example
 * const x = model.embeddings.forward(inputIds); // [B, T] int32 -> [B, T, E]
 */
export class ModernBertEmbeddings extends Module {
  readonly tokEmbeddings: Embedding;
  readonly norm: LayerNorm;
  readonly drop: Dropout;
  readonly #config: ModernBertConfig;

  constructor(c: ModernBertConfig) {
    super();
    checkObject(c, { caller: 'ModernBertEmbeddings', ...CONFIG });
    this.#config = c;
    [this.tokEmbeddings, this.norm, this.drop] = this.guard(() => [
      this.registerModule('tok_embeddings', new Embedding(c.vocabSize, c.hiddenSize, { paddingIdx: c.padTokenId })),
      this.registerModule('norm', new LayerNorm(c.hiddenSize, { eps: c.layerNormEps, bias: c.normBias })),
      this.registerModule('drop', new Dropout(c.embeddingDropout)),
    ] as const);
  }

  /** `ids [B, T]` (checked by the model's `forward`) → `[B, T, E]`. */
  forward(inputIds: Tensor): Tensor {
    this.assertLive('ModernBertEmbeddings.forward');
    checkEmbeddingIds('ModernBertEmbeddings.forward', this.#config, inputIds); // read only when the model's forward has not
    return tidy(() => this.drop.forward(this.norm.forward(this.tokEmbeddings.forward(inputIds, { idsChecked: true }))));
  }
}

/**
 * `layers.N.attn`: one projection `Wqkv` to queries, keys and values, rotary embeddings on queries
 * and keys (the layer type's theta), attention over H heads within the layer's mask (every token, or
 * the sliding window), and the output projection `Wo`.
 * `hidden [B, T, E]` → `{ output [B, T, E], weights [B, H, T, T] (with outputAttentions) }`.
 *
 * @example
 * const { output } = layer.attn.forward(hidden, { mask, cos, sin });
 */
export class ModernBertAttention extends Module {
  readonly Wqkv: Linear;
  readonly Wo: Linear;
  readonly numHeads: number;
  readonly dropoutRate: number;

  constructor(c: ModernBertConfig) {
    super();
    checkObject(c, { caller: 'ModernBertAttention', ...CONFIG });
    this.numHeads = c.numAttentionHeads;
    this.dropoutRate = c.attentionProbsDropoutProb;
    [this.Wqkv, this.Wo] = this.guard(() => [
      this.registerModule('Wqkv', new Linear(c.hiddenSize, 3 * c.hiddenSize, { bias: c.attentionBias })),
      this.registerModule('Wo', new Linear(c.hiddenSize, c.hiddenSize, { bias: c.attentionBias })),
    ] as const);
  }

  forward(hidden: Tensor, inputs: ModernBertAttentionInputs, options: LayerCallOptions = {}): { output: Tensor; weights: Tensor | undefined } {
    this.assertLive('ModernBertAttention.forward');
    checkRotaryTables('ModernBertAttention.forward', 'inputs', inputs);
    checkLayerCall('ModernBertAttention.forward', hidden, inputs.mask, undefined, options);
    return tidy(() => {
      const [q, k, v] = split(this.Wqkv.forward(hidden), 3, 2).map((x) => splitHeads(x, this.numHeads)); // [B, T, 3E] -> 3 × [B, T, E] -> [B, H, T, D]
      const { query, key } = applyRotary(q as Tensor, k as Tensor, inputs.cos, inputs.sin); // [B, H, T, D]
      const { output, weights } = attendHeads(query, key, v as Tensor, { mask: inputs.mask, dropout: this.dropoutRate, training: this.training }, options); // [B, H, T, D]
      // transformers' out_drop is the attention dropout too (an Identity when it is 0)
      return { output: this.Wo.forward(mergeHeads(output)), weights }; // [B, H, T, D] -> [B, T, E]
    });
  }
}

/**
 * `layers.N.mlp`: a gated linear unit — `Wi` gives `[B, T, 2I]`, split into an input and a gate,
 * `Wo(drop(act(input) · gate))`. `hidden [B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const y = layer.mlp.forward(layer.mlpNorm.forward(x)); // [B, T, E]
 */
export class ModernBertMLP extends Module {
  readonly Wi: Linear;
  readonly Wo: Linear;
  readonly drop: Dropout;
  readonly activation: ActivationFunction;

  constructor(c: ModernBertConfig) {
    super();
    checkObject(c, { caller: 'ModernBertMLP', ...CONFIG });
    this.activation = activationByName(c.hiddenAct, 'ModernBertMLP');
    [this.Wi, this.drop, this.Wo] = this.guard(() => [
      this.registerModule('Wi', new Linear(c.hiddenSize, 2 * c.intermediateSize, { bias: c.mlpBias })),
      this.registerModule('drop', new Dropout(c.hiddenDropoutProb)),
      this.registerModule('Wo', new Linear(c.intermediateSize, c.hiddenSize, { bias: c.mlpBias })),
    ] as const);
  }

  forward(hidden: Tensor): Tensor {
    this.assertLive('ModernBertMLP.forward');
    return tidy(() => {
      const [input, gate] = split(this.Wi.forward(hidden), 2, 2) as [Tensor, Tensor]; // [B, T, 2I] -> 2 × [B, T, I]
      return this.Wo.forward(this.drop.forward(mul(this.activation(input), gate))); // [B, T, I] -> [B, T, E]
    });
  }
}

/**
 * `layers.N`: pre-norm attention and MLP with residuals — `x + attn(attn_norm(x))`, then
 * `x + mlp(mlp_norm(x))`. Layer 0 has no `attn_norm` (transformers' `nn.Identity`: the embeddings
 * end in a norm). `type` is the layer's kind, from `layer_types`.
 *
 * @example
 * const { hidden } = model.layers.at(1).forward(x, inputs); // [B, T, E]
 */
export class ModernBertEncoderLayer extends Module {
  readonly type: ModernBertLayerType;
  /** Undefined for layer 0. */
  readonly attnNorm: LayerNorm | undefined;
  readonly attn: ModernBertAttention;
  readonly mlpNorm: LayerNorm;
  readonly mlp: ModernBertMLP;

  constructor(c: ModernBertConfig, index: number) {
    super();
    checkObject(c, { caller: 'ModernBertEncoderLayer', ...CONFIG });
    if (!Array.isArray(c.layerTypes)) throw new InvalidArgumentError({ caller: 'ModernBertEncoderLayer', argument: 'config.layerTypes', expected: 'the kind of each layer (parseModernBertConfig reads it)', received: describeValue(c.layerTypes) });
    this.type = c.layerTypes[checkInteger(index, { caller: 'ModernBertEncoderLayer', argument: 'index', min: 0, max: c.layerTypes.length - 1 })] as ModernBertLayerType;
    const norm = () => new LayerNorm(c.hiddenSize, { eps: c.layerNormEps, bias: c.normBias });
    [this.attnNorm, this.attn, this.mlpNorm, this.mlp] = this.guard(() => [
      index === 0 ? undefined : this.registerModule('attn_norm', norm()),
      this.registerModule('attn', new ModernBertAttention(c)),
      this.registerModule('mlp_norm', norm()),
      this.registerModule('mlp', new ModernBertMLP(c)),
    ] as const);
  }

  /** `hidden [B, T, E]`, this layer type's mask and rotary tables → `{ hidden [B, T, E], weights [B, H, T, T] (with outputAttentions) }`. */
  forward(hidden: Tensor, inputs: ModernBertAttentionInputs, options: LayerCallOptions = {}): { hidden: Tensor; weights: Tensor | undefined } {
    this.assertLive('ModernBertEncoderLayer.forward');
    checkRotaryTables('ModernBertEncoderLayer.forward', 'inputs', inputs);
    checkLayerCall('ModernBertEncoderLayer.forward', hidden, inputs.mask, undefined, options);
    return tidy(() => {
      const normed = this.attnNorm === undefined ? hidden : this.attnNorm.forward(hidden);
      const { output, weights } = this.attn.forward(normed, inputs, options);
      const attended = add(hidden, output); // x + attn(attn_norm(x))
      return { hidden: add(attended, this.mlp.forward(this.mlpNorm.forward(attended))), weights }; // + mlp(mlp_norm(x))
    });
  }
}

/**
 * A ModernBERT encoder equal to transformers' `ModernBertModel`: token embeddings with a norm, N
 * pre-norm layers — global attention every `global_attn_every_n_layers` layers, attention within a
 * sliding window (`|t − s| ≤ local_attention / 2`) in the others, each kind with its rotary theta —
 * with gated MLPs, and `final_norm`. No pooler. Padding is masked: with right padding, the outputs
 * at the real tokens equal those of the unpadded sequence (positions count from 0 in every row,
 * as transformers does; with left padding they would not). Without a checkpoint every parameter
 * is drawn `N(0, initializer_range)` (transformers draws truncated normals with per-layer widths).
 *
 * `inputs` → `{ lastHiddenState [B, T, E], hiddenStates?, attentions? }`.
 *
 * @example
 * const model = await loadEncoder('./ModernBERT-base');
 * const { lastHiddenState } = model.forward({ inputIds, attentionMask }); // [B, T, 768]
 */
export class ModernBertModel extends Module implements Encoder {
  readonly config: ModernBertConfig;
  readonly embeddings: ModernBertEmbeddings;
  readonly layers: ModuleList<ModernBertEncoderLayer>;
  readonly finalNorm: LayerNorm;
  readonly initialisedKeys: readonly string[] = [];

  /** `checkpoint`: values by checkpoint key (no `model.` prefix), loaded strictly. */
  constructor(config: ModernBertConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed'], 'ModernBertModel');
    this.config = checkModelType(config, ['modernbert'], 'ModernBertModel') as ModernBertConfig;
    [this.embeddings, this.layers, this.finalNorm] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('embeddings', new ModernBertEmbeddings(config)),
        this.registerModule('layers', new ModuleList(Array.from({ length: config.numHiddenLayers }, (_, i) => new ModernBertEncoderLayer(config, i)))),
        this.registerModule('final_norm', new LayerNorm(config.hiddenSize, { eps: config.layerNormEps, bias: config.normBias })),
      ] as const);
      if (checkpoint === undefined) initialiseLikeHuggingFace(this, config.initializerRange, options.seed);
      else this.loadStateDict(checkpoint);
      return parts;
    });
  }

  /** Runs the encoder: `{ lastHiddenState [B, T, E], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): EncoderOutputs {
    const caller = 'ModernBertModel.forward';
    this.assertLive(caller);
    return encoderForward(caller, this.config, modernBertEncoderParts(this.config, this), inputs);
  }
}
