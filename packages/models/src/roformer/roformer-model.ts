import { add, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { applyRotaryInterleaved, mergeHeads, splitHeads } from '@attnkit/attention';
import { checkObject, InvalidArgumentError } from '@attnkit/errors';
import { Dropout, Embedding, LayerNorm, Linear, Module, ModuleDict, ModuleList, activationByName, linearThenActivation, skipInitialization, type ActivationFunction, type StateDictSource } from '@attnkit/nn';
import { BertResidualOutput } from '../bert/bert-model.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { Encoder, EncoderInputs, EncoderOutputs } from '../encoder/encoder.js';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { attendHeads, encoderForward, type LayerCallOptions } from '../encoder/encoder-forward.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { loadCheckpoint } from '../encoder/load-checkpoint.js';
import { RoFormerSinusoidalPositions } from './roformer-sinusoidal-positions.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';
import { checkLayerCall, checkRotaryTables } from '../encoder/check-layer-call.js';
import { checkEmbeddingIds } from '../encoder/check-encoder-inputs.js';

// The module tree mirrors transformers' modeling_roformer (`encoder.layer.0.attention.self.query.weight`,
// `encoder.embed_positions.weight`), so loading is `loadStateDict`.

/** The rotary tables one forward pass shares: `cos`, `sin` `[1, T, D]` (interleaved layout). */
export interface RoFormerRotary {
  readonly cos: Tensor;
  readonly sin: Tensor;
}

/**
 * `embeddings`: word + token type (no position table: positions are rotary), LayerNorm and
 * dropout, at `embedding_size`. `ids [B, T]` → `[B, T, embeddingSize]`.
 *
 * @example
 * const x = model.embeddings.forward(inputIds, tokenTypeIds); // [B, T] int32 -> [B, T, embeddingSize]
 */
export class RoFormerEmbeddings extends Module {
  readonly wordEmbeddings: Embedding;
  readonly tokenTypeEmbeddings: Embedding;
  readonly layerNorm: LayerNorm;
  readonly dropout: Dropout;
  readonly #config: EncoderConfig;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'RoFormerEmbeddings', argument: 'config', expected: 'a parsed RoFormer config (parseRoFormerConfig)' });
    this.#config = c;
    [this.wordEmbeddings, this.tokenTypeEmbeddings, this.layerNorm, this.dropout] = this.guard(() => [
      this.registerModule('word_embeddings', new Embedding(c.vocabSize, c.embeddingSize, { paddingIdx: c.padTokenId })),
      this.registerModule('token_type_embeddings', new Embedding(c.typeVocabSize, c.embeddingSize)),
      this.registerModule('LayerNorm', new LayerNorm(c.embeddingSize, { eps: c.layerNormEps })),
      this.registerModule('dropout', new Dropout(c.hiddenDropoutProb)),
    ] as const);
  }

  forward(inputIds: Tensor, tokenTypeIds: Tensor | undefined): Tensor {
    this.assertLive('RoFormerEmbeddings.forward');
    checkEmbeddingIds('RoFormerEmbeddings.forward', this.#config, inputIds, tokenTypeIds); // read only when the model's forward has not
    return tidy(() => {
      const words = this.wordEmbeddings.forward(inputIds, { idsChecked: true }); // [B, T, E'] (the model's forward checked the ids)
      const types = tokenTypeIds === undefined
        ? slice(this.tokenTypeEmbeddings.weight, [0, 0], [1, -1]) // [1, E']: every token in segment 0
        : this.tokenTypeEmbeddings.forward(tokenTypeIds, { idsChecked: true }); // [B, T, E']
      return this.dropout.forward(this.layerNorm.forward(add(words, types)));
    });
  }
}

/**
 * `attention.self`: query, key and value projections; queries and keys (and values, with
 * `rotary_value`) turned by the rotary tables in RoFormer's interleaved layout
 * (`applyRotaryInterleaved`); then scaled dot-product attention over H heads.
 *
 * @example
 * const { context } = layer.attention.get('self').forward(hidden, mask, rotary); // [B, T, E]
 */
export class RoFormerSelfAttention extends Module {
  readonly query: Linear;
  readonly key: Linear;
  readonly value: Linear;
  readonly #numHeads: number;
  readonly #dropout: number;
  readonly #rotaryValue: boolean;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'RoFormerSelfAttention', argument: 'config', expected: 'a parsed RoFormer config (parseRoFormerConfig)' });
    this.#numHeads = c.numAttentionHeads;
    this.#dropout = c.attentionProbsDropoutProb;
    this.#rotaryValue = c.rotaryValue;
    [this.query, this.key, this.value] = this.guard(() => ['query', 'key', 'value'].map((name) => this.registerModule(name, new Linear(c.hiddenSize, c.hiddenSize))) as [Linear, Linear, Linear]);
  }

  /** `hidden [B, T, E]`, mask bool `[B, 1, 1, T]`, rotary `[1, T, D]` tables → `{ context [B, T, E], weights [B, H, T, T] (with outputAttentions) }`. */
  forward(hidden: Tensor, mask: Tensor | undefined, rotary: RoFormerRotary, options: LayerCallOptions = {}): { context: Tensor; weights: Tensor | undefined } {
    this.assertLive('RoFormerSelfAttention.forward');
    checkLayerCall('RoFormerSelfAttention.forward', hidden, mask, undefined, options);
    checkRotaryTables('RoFormerSelfAttention.forward', 'rotary', rotary);
    return tidy(() => {
      const turned = (projection: Linear) => applyRotaryInterleaved(splitHeads(projection.forward(hidden), this.#numHeads), rotary.cos, rotary.sin); // [B, T, E] -> [B, H, T, D], turned
      const value = this.#rotaryValue ? turned(this.value) : splitHeads(this.value.forward(hidden), this.#numHeads);
      const { output, weights } = attendHeads(turned(this.query), turned(this.key), value, { mask, dropout: this.#dropout, training: this.training }, options); // [B, H, T, D]
      return { context: mergeHeads(output), weights }; // [B, H, T, D] -> [B, T, E]
    });
  }
}

/**
 * `encoder.layer.N`: BERT's layer with RoFormer's self-attention: post-LN attention and
 * feed-forward blocks. `[B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const { hidden } = model.encoder.get('layer').at(0).forward(x, mask, rotary);
 */
export class RoFormerLayer extends Module {
  readonly attention: ModuleDict<{ self: RoFormerSelfAttention; output: BertResidualOutput }>;
  readonly intermediate: ModuleDict<{ dense: Linear }>;
  readonly output: BertResidualOutput;
  readonly activation: ActivationFunction;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'RoFormerLayer', argument: 'config', expected: 'a parsed RoFormer config (parseRoFormerConfig)' });
    this.activation = activationByName(c.hiddenAct, 'RoFormerLayer');
    [this.attention, this.intermediate, this.output] = this.guard(() => [
      this.registerModule('attention', new ModuleDict({ self: new RoFormerSelfAttention(c), output: new BertResidualOutput(c, c.hiddenSize) })),
      this.registerModule('intermediate', new ModuleDict({ dense: new Linear(c.hiddenSize, c.intermediateSize) })),
      this.registerModule('output', new BertResidualOutput(c, c.intermediateSize)),
    ] as const);
  }

  /** `weights [B, H, T, T]` only with `outputAttentions`. */
  forward(hidden: Tensor, mask: Tensor | undefined, rotary: RoFormerRotary, options: LayerCallOptions = {}): { hidden: Tensor; weights: Tensor | undefined } {
    this.assertLive('RoFormerLayer.forward');
    checkLayerCall('RoFormerLayer.forward', hidden, mask, undefined, options);
    checkRotaryTables('RoFormerLayer.forward', 'rotary', rotary);
    return tidy(() => {
      const { context, weights } = this.attention.get('self').forward(hidden, mask, rotary, options); // [B, T, E]
      const attended = this.attention.get('output').forward(context, hidden); // LN(dense(context) + hidden)
      const intermediate = linearThenActivation(this.intermediate.get('dense'), attended, this.activation); // [B, T, I]
      return { hidden: this.output.forward(intermediate, attended), weights }; // LN(dense(intermediate) + attended)
    });
  }
}

const TABLE_KEY = 'encoder.embed_positions.weight';

/**
 * A RoFormer encoder equal to transformers' `RoFormerModel`: word and token-type embeddings at
 * `embedding_size` (projected to `hidden_size` by `embeddings_project` when the two differ), then
 * BERT-style post-LN layers whose queries and keys (and values, with `rotary_value`) are turned by
 * sinusoidal rotary position embeddings in RoFormer's interleaved layout; the sinusoidal table is
 * `encoder.embed_positions.weight` (from the checkpoint, or computed as transformers does when the
 * checkpoint lacks it: `initialisedKeys` names it). No pooler. Sequences hold at most
 * `max_position_embeddings` tokens.
 *
 * @example
 * const model = await loadEncoder('./roformer_chinese_base');
 * const { lastHiddenState } = model.forward({ inputIds, attentionMask }); // [B, T, E]
 */
export class RoFormerModel extends Module implements Encoder {
  readonly config: EncoderConfig;
  readonly embeddings: RoFormerEmbeddings;
  /** `[B, T, embeddingSize]` → `[B, T, E]`; absent when the widths are equal. */
  readonly embeddingsProject: Linear | undefined;
  readonly encoder: ModuleDict<{ embed_positions: RoFormerSinusoidalPositions; layer: ModuleList<RoFormerLayer> }>;
  /** Always empty: a checkpoint without `encoder.embed_positions.weight` gets the computed table, the values transformers stores. */
  readonly initialisedKeys: readonly string[] = [];

  /** `checkpoint`: values by checkpoint key (no `roformer.` prefix), loaded strictly (but for a missing sinusoidal table, computed); without one, transformers' initialisation. */
  constructor(config: EncoderConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed'], 'RoFormerModel');
    const c = checkModelType(config, ['roformer'], 'RoFormerModel');
    const headDim = c.hiddenSize / c.numAttentionHeads;
    if (headDim % 2 !== 0) throw new InvalidArgumentError({ caller: 'RoFormerModel', argument: 'config', expected: 'an even head width hidden_size / num_attention_heads (rotary embeddings turn pairs)', received: `${c.hiddenSize} / ${c.numAttentionHeads} = ${headDim}` });
    activationByName(c.hiddenAct, 'RoFormerModel'); // before the sinusoidal table is made: a layer refusing it later would leave that table behind
    this.config = c;
    [this.embeddings, this.embeddingsProject, this.encoder] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('embeddings', new RoFormerEmbeddings(c)),
        c.embeddingSize === c.hiddenSize ? undefined : this.registerModule('embeddings_project', new Linear(c.embeddingSize, c.hiddenSize)),
        this.registerModule('encoder', new ModuleDict({
          embed_positions: new RoFormerSinusoidalPositions(c.maxPositionEmbeddings, headDim),
          layer: new ModuleList(Array.from({ length: c.numHiddenLayers }, () => new RoFormerLayer(c))),
        })),
      ] as const);
      const initialise = (keys?: readonly string[]) => {
        initialiseLikeHuggingFace(this, c.initializerRange, options.seed, keys === undefined ? undefined : (name) => keys.includes(name));
        parts[2].get('embed_positions').reset(); // sinusoidal, as transformers' _init_weights copies create_weight()
      };
      if (checkpoint === undefined) initialise();
      else loadCheckpoint(this, checkpoint, [TABLE_KEY], initialise); // a checkpoint without the table gets the same values computed
      return parts;
    });
  }

  /** Runs the encoder: `{ lastHiddenState [B, T, E], hiddenStates?, attentions? }` (no pooler). Dispose the outputs. */
  forward(inputs: EncoderInputs): EncoderOutputs {
    this.assertLive('RoFormerModel.forward');
    let rotary: RoFormerRotary | undefined; // made once per forward, when the first layer runs, inside encoderForward's tidy
    const tables = (length: number) => (rotary ??= this.encoder.get('embed_positions').rotaryTables(length));
    return encoderForward('RoFormerModel.forward', this.config, {
      embed: (ids, types) => {
        const embedded = this.embeddings.forward(ids, types); // [B, T, embeddingSize]
        return this.embeddingsProject === undefined ? embedded : this.embeddingsProject.forward(embedded); // [B, T, E]
      },
      layers: Array.from(this.encoder.get('layer'), (layer) => ({
        forward: (hidden: Tensor, mask: Tensor | undefined, _bias?: Tensor, options?: LayerCallOptions) => layer.forward(hidden, mask, tables(hidden.shape[1] as number), options),
      })),
    }, inputs);
  }
}
