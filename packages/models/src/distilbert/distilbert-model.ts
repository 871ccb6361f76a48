import { add, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { mergeHeads, splitHeads } from '@attnkit/attention';
import { Dropout, Embedding, LayerNorm, Linear, Module, ModuleList, activationByName, linearThenActivation, skipInitialization, type ActivationFunction, type StateDictSource, ModuleDict } from '@attnkit/nn';
import { checkModelType } from '../encoder/check-model-type.js';
import type { Encoder, EncoderInputs, EncoderOutputs } from '../encoder/encoder.js';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { attendHeads, encoderForward, type LayerCallOptions } from '../encoder/encoder-forward.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { checkObject } from '@attnkit/errors';
import { checkBuildOptions } from '../encoder/check-build-options.js';
import { checkLayerCall } from '../encoder/check-layer-call.js';
import { checkEmbeddingIds } from '../encoder/check-encoder-inputs.js';

// The module tree mirrors Hugging Face's modeling_distilbert (`transformer.layer.0.attention.q_lin.weight`).

/**
 * `embeddings`: word + position (no token types), LayerNorm, dropout. `ids [B, T]` → `[B, T, E]`.
 *
 * @example
 * const x = model.embeddings.forward(inputIds); // [B, T] int32 -> [B, T, E]
 */
export class DistilBertEmbeddings extends Module {
  readonly wordEmbeddings: Embedding;
  readonly positionEmbeddings: Embedding;
  readonly layerNorm: LayerNorm;
  readonly dropout: Dropout;
  readonly #config: EncoderConfig;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'DistilBertEmbeddings', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.#config = c;
    [this.wordEmbeddings, this.positionEmbeddings, this.layerNorm, this.dropout] = this.guard(() => [
      this.registerModule('word_embeddings', new Embedding(c.vocabSize, c.hiddenSize, { paddingIdx: c.padTokenId })),
      this.registerModule('position_embeddings', new Embedding(c.maxPositionEmbeddings, c.hiddenSize)),
      this.registerModule('LayerNorm', new LayerNorm(c.hiddenSize, { eps: c.layerNormEps })),
      this.registerModule('dropout', new Dropout(c.hiddenDropoutProb)),
    ] as const);
  }

  forward(inputIds: Tensor): Tensor {
    this.assertLive('DistilBertEmbeddings.forward');
    checkEmbeddingIds('DistilBertEmbeddings.forward', this.#config, inputIds); // read only when the model's forward has not
    return tidy(() => {
      const words = this.wordEmbeddings.forward(inputIds, { idsChecked: true }); // [B, T, E] (checked by the model's forward)
      const positions = slice(this.positionEmbeddings.weight, [0, 0], [inputIds.shape[1] as number, -1]); // [T, E]: positions 0..T-1
      return this.dropout.forward(this.layerNorm.forward(add(words, positions)));
    });
  }
}

/**
 * `transformer.layer.N`: multi-head self-attention (`q_lin`, `k_lin`, `v_lin`, `out_lin`) and a
 * feed-forward block (`ffn.lin1`, `ffn.lin2`), each post-LN. `[B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const { hidden } = model.transformer.layer.at(0).forward(x, mask); // mask bool [B, 1, 1, T]
 */
export class TransformerBlock extends Module {
  readonly attention: ModuleDict<{ q_lin: Linear; k_lin: Linear; v_lin: Linear; out_lin: Linear }>;
  readonly saLayerNorm: LayerNorm;
  readonly ffn: ModuleDict<{ lin1: Linear; lin2: Linear; dropout: Dropout }>;
  readonly outputLayerNorm: LayerNorm;
  readonly activation: ActivationFunction;
  readonly #numHeads: number;
  readonly #attentionDropout: number;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'TransformerBlock', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.activation = activationByName(c.hiddenAct, 'TransformerBlock');
    this.#numHeads = c.numAttentionHeads;
    this.#attentionDropout = c.attentionProbsDropoutProb;
    const e = c.hiddenSize;
    [this.attention, this.saLayerNorm, this.ffn, this.outputLayerNorm] = this.guard(() => [
      this.registerModule('attention', new ModuleDict({ q_lin: new Linear(e, e), k_lin: new Linear(e, e), v_lin: new Linear(e, e), out_lin: new Linear(e, e) })),
      this.registerModule('sa_layer_norm', new LayerNorm(e, { eps: c.layerNormEps })),
      this.registerModule('ffn', new ModuleDict({ lin1: new Linear(e, c.intermediateSize), lin2: new Linear(c.intermediateSize, e), dropout: new Dropout(c.hiddenDropoutProb) })),
      this.registerModule('output_layer_norm', new LayerNorm(e, { eps: c.layerNormEps })),
    ] as const);
  }

  /** `weights [B, H, T, T]` only with `outputAttentions`; DistilBERT has no score bias (`_bias` is ignored). */
  forward(hidden: Tensor, mask: Tensor | undefined, _bias?: Tensor, options: LayerCallOptions = {}): { hidden: Tensor; weights: Tensor | undefined } {
    this.assertLive('TransformerBlock.forward');
    checkLayerCall('TransformerBlock.forward', hidden, mask, _bias, options);
    return tidy(() => {
      const heads = (projection: Linear) => splitHeads(projection.forward(hidden), this.#numHeads); // [B, T, E] -> [B, H, T, D]
      const attention = { mask, dropout: this.#attentionDropout, training: this.training };
      const { output, weights } = attendHeads(heads(this.attention.get('q_lin')), heads(this.attention.get('k_lin')), heads(this.attention.get('v_lin')), attention, options); // [B, H, T, D]
      const attended = this.saLayerNorm.forward(add(this.attention.get('out_lin').forward(mergeHeads(output)), hidden)); // LN(out_lin(context) + x)
      const fed = this.ffn.get('dropout').forward(this.ffn.get('lin2').forward(linearThenActivation(this.ffn.get('lin1'), attended, this.activation))); // [B, T, E]
      return { hidden: this.outputLayerNorm.forward(add(fed, attended)), weights }; // LN(ffn + attended)
    });
  }
}

/**
 * A DistilBERT encoder equal to Hugging Face's `DistilBertModel`: no token types, no pooler.
 *
 * @example
 * const model = await loadEncoder('./distilbert-folder');
 * const { lastHiddenState } = model.forward({ inputIds, attentionMask }); // [B, T, E]
 */
export class DistilBertModel extends Module implements Encoder {
  readonly config: EncoderConfig;
  readonly embeddings: DistilBertEmbeddings;
  readonly transformer: ModuleDict<{ layer: ModuleList<TransformerBlock> }>;
  readonly initialisedKeys: readonly string[] = [];

  /** `checkpoint`: values by checkpoint key (no `distilbert.` prefix), loaded strictly; without one, Hugging Face's initialisation. */
  constructor(config: EncoderConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed'], 'DistilBertModel');
    this.config = checkModelType(config, ['distilbert'], 'DistilBertModel');
    [this.embeddings, this.transformer] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('embeddings', new DistilBertEmbeddings(config)),
        this.registerModule('transformer', new ModuleDict({ layer: new ModuleList(Array.from({ length: config.numHiddenLayers }, () => new TransformerBlock(config))) })),
      ] as const);
      if (checkpoint === undefined) initialiseLikeHuggingFace(this, config.initializerRange, options.seed);
      else this.loadStateDict(checkpoint);
      return parts;
    });
  }

  /** Runs the encoder: `{ lastHiddenState [B, T, E], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): EncoderOutputs {
    this.assertLive('DistilBertModel.forward');
    return encoderForward('DistilBertModel.forward', this.config, { embed: (ids) => this.embeddings.forward(ids), layers: this.transformer.get('layer') }, inputs);
  }
}
