import { add, slice, squeeze, tanh, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { mergeHeads, splitHeads } from '@attnkit/attention';
import { Dropout, Embedding, LayerNorm, Linear, Module, ModuleList, activationByName, linearThenActivation, skipInitialization, type ActivationFunction, type StateDictSource, ModuleDict } from '@attnkit/nn';
import { BertResidualOutput } from '../bert/bert-model.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { Encoder, EncoderInputs, EncoderOutputs } from '../encoder/encoder.js';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { attendHeads, encoderForward, type LayerCallOptions } from '../encoder/encoder-forward.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { loadCheckpoint } from '../encoder/load-checkpoint.js';
import { RobertaEmbeddings } from '../roberta/roberta-model.js';
import { mpnetPositionBias } from './mpnet-position-bias.js';
import { checkObject } from '@attnkit/errors';
import { checkBuildOptions } from '../encoder/check-build-options.js';
import { checkLayerCall } from '../encoder/check-layer-call.js';

// The module tree mirrors Hugging Face's modeling_mpnet (`encoder.layer.0.attention.attn.q.weight`).

/**
 * `attention.attn`: `q`, `k`, `v` projections, attention over H heads with the relative position
 * bias added to the scores, and the output projection `o`.
 *
 * @example
 * const { context } = layer.attention.attn.forward(hidden, mask, bias); // [B, T, E]
 */
export class MPNetSelfAttention extends Module {
  readonly q: Linear;
  readonly k: Linear;
  readonly v: Linear;
  readonly o: Linear;
  readonly #numHeads: number;
  readonly #dropout: number;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'MPNetSelfAttention', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.#numHeads = c.numAttentionHeads;
    this.#dropout = c.attentionProbsDropoutProb;
    const e = c.hiddenSize;
    [this.q, this.k, this.v, this.o] = this.guard(() => ['q', 'k', 'v', 'o'].map((name) => this.registerModule(name, new Linear(e, e))) as [Linear, Linear, Linear, Linear]);
  }

  /** `hidden [B, T, E]`, mask bool `[B, 1, 1, T]`, bias `[1, H, T, T]` → `{ context [B, T, E] (after o), weights [B, H, T, T] (with outputAttentions) }`. */
  forward(hidden: Tensor, mask: Tensor | undefined, bias: Tensor | undefined, options: LayerCallOptions = {}): { context: Tensor; weights: Tensor | undefined } {
    this.assertLive('MPNetSelfAttention.forward');
    checkLayerCall('MPNetSelfAttention.forward', hidden, mask, bias, options);
    return tidy(() => {
      const heads = (projection: Linear) => splitHeads(projection.forward(hidden), this.#numHeads); // [B, T, E] -> [B, H, T, D]
      const { output, weights } = attendHeads(heads(this.q), heads(this.k), heads(this.v), {
        mask,
        ...(bias === undefined ? {} : { bias }),
        dropout: this.#dropout,
        training: this.training,
      }, options); // [B, H, T, D]
      return { context: this.o.forward(mergeHeads(output)), weights }; // [B, H, T, D] -> [B, T, E]
    });
  }
}

/**
 * `encoder.layer.N`: self-attention (`attention.attn`, then `attention.LayerNorm` over the residual)
 * and BERT's feed-forward block. `[B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const { hidden } = model.encoder.layer.at(0).forward(x, mask, bias);
 */
export class MPNetLayer extends Module {
  readonly attention: ModuleDict<{ attn: MPNetSelfAttention; LayerNorm: LayerNorm; dropout: Dropout }>;
  readonly intermediate: ModuleDict<{ dense: Linear }>;
  readonly output: BertResidualOutput;
  readonly activation: ActivationFunction;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'MPNetLayer', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.activation = activationByName(c.hiddenAct, 'MPNetLayer');
    [this.attention, this.intermediate, this.output] = this.guard(() => [
      this.registerModule('attention', new ModuleDict({ attn: new MPNetSelfAttention(c), LayerNorm: new LayerNorm(c.hiddenSize, { eps: c.layerNormEps }), dropout: new Dropout(c.hiddenDropoutProb) })),
      this.registerModule('intermediate', new ModuleDict({ dense: new Linear(c.hiddenSize, c.intermediateSize) })),
      this.registerModule('output', new BertResidualOutput(c, c.intermediateSize)),
    ] as const);
  }

  /** `weights [B, H, T, T]` only with `outputAttentions`. */
  forward(hidden: Tensor, mask: Tensor | undefined, bias?: Tensor, options: LayerCallOptions = {}): { hidden: Tensor; weights: Tensor | undefined } {
    this.assertLive('MPNetLayer.forward');
    checkLayerCall('MPNetLayer.forward', hidden, mask, bias, options);
    return tidy(() => {
      const { context, weights } = this.attention.get('attn').forward(hidden, mask, bias, options); // [B, T, E]
      const attended = this.attention.get('LayerNorm').forward(add(this.attention.get('dropout').forward(context), hidden)); // LN(attn + x)
      const intermediate = linearThenActivation(this.intermediate.get('dense'), attended, this.activation); // [B, T, I]
      return { hidden: this.output.forward(intermediate, attended), weights }; // LN(dense(intermediate) + attended)
    });
  }
}

/**
 * An MPNet encoder equal to Hugging Face's `MPNetModel`: RoBERTa-style embeddings (positions
 * from the padding id, no token types), a relative position bias shared by every layer
 * (`encoder.relative_attention_bias`, bucketed distances), and a pooler.
 *
 * @example
 * const model = await loadEncoder('./all-mpnet-base-v2');
 * const { lastHiddenState, poolerOutput } = model.forward({ inputIds, attentionMask });
 */
export class MPNetModel extends Module implements Encoder {
  readonly config: EncoderConfig;
  readonly embeddings: RobertaEmbeddings;
  readonly encoder: ModuleDict<{ layer: ModuleList<MPNetLayer>; relative_attention_bias: Embedding }>;
  readonly pooler: ModuleDict<{ dense: Linear }>;
  readonly initialisedKeys: readonly string[];

  /** `checkpoint`: values by checkpoint key (no `mpnet.` prefix); a missing pooler is initialised (`initialisedKeys`). */
  constructor(config: EncoderConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed'], 'MPNetModel');
    this.config = checkModelType(config, ['mpnet'], 'MPNetModel');
    let initialised: string[] = [];
    [this.embeddings, this.encoder, this.pooler] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('embeddings', new RobertaEmbeddings(config)),
        this.registerModule('encoder', new ModuleDict({
          layer: new ModuleList(Array.from({ length: config.numHiddenLayers }, () => new MPNetLayer(config))),
          relative_attention_bias: new Embedding(config.relativeAttentionNumBuckets, config.numAttentionHeads),
        })),
        this.registerModule('pooler', new ModuleDict({ dense: new Linear(config.hiddenSize, config.hiddenSize) })),
      ] as const);
      const initialise = (keys?: readonly string[]) => initialiseLikeHuggingFace(this, config.initializerRange, options.seed, keys === undefined ? undefined : (name) => keys.includes(name));
      if (checkpoint === undefined) initialise();
      else initialised = loadCheckpoint(this, checkpoint, ['pooler.dense.weight', 'pooler.dense.bias'], initialise);
      return parts;
    });
    this.initialisedKeys = initialised;
  }

  /** Runs the encoder: `{ lastHiddenState [B, T, E], poolerOutput [B, E], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): EncoderOutputs {
    this.assertLive('MPNetModel.forward');
    return encoderForward('MPNetModel.forward', this.config, {
      embed: (ids) => this.embeddings.forward(ids, undefined),
      layers: this.encoder.get('layer'),
      positionBias: (length) => mpnetPositionBias(this.encoder.get('relative_attention_bias'), length, this.config), // [1, H, T, T]
      pool: (hidden) => tanh(this.pooler.get('dense').forward(squeeze(slice(hidden, [0, 0, 0], [-1, 1, -1]), [1]))), // tanh(dense(h[:, 0])): [B, E]
    }, inputs);
  }
}
