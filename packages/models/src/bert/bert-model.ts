import { add, div, slice, squeeze, tanh, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkObject, InvalidArgumentError } from '@attnkit/errors';
import { mergeHeads, splitHeads } from '@attnkit/attention';
import { Dropout, Embedding, LayerNorm, Linear, Module, ModuleList, activationByName, int8QkvFusable, int8QkvProjection, linearResidualLayerNorm, linearThenActivation, skipInitialization, type ActivationFunction, type StateDictSource, ModuleDict, type Int8Linear } from '@attnkit/nn';
import { fusedAttentionTokens, fusedQkvAttention, kernelRoute } from '@attnkit/kernels';
import type { Encoder, EncoderInputs, EncoderOutputs } from '../encoder/encoder.js';
import type { EncoderConfig, ModelType } from '../encoder/encoder-config.js';
import { attendHeads, encoderForward, type LayerCallOptions } from '../encoder/encoder-forward.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { loadCheckpoint } from '../encoder/load-checkpoint.js';
import { checkEncoderSize } from '../encoder/encoder-size.js';
import { relativeKeyScores, type RelativeKeyType } from './relative-key-scores.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';
import { checkEncoderConfig } from '../encoder/check-encoder-config.js';
import { checkLayerCall } from '../encoder/check-layer-call.js';
import { checkEmbeddingIds } from '../encoder/check-encoder-inputs.js';

// The module tree mirrors Hugging Face's modeling_bert, so a parameter's dotted path is its
// checkpoint key (`encoder.layer.0.attention.self.query.weight`): loading is `loadStateDict`.

/**
 * `embeddings`: word + position + token type (when the family has token types), then LayerNorm
 * and dropout. With relative positions (`position_embedding_type` `relative_key(_query)`) the
 * position table is kept (the checkpoint has it) but not added, as transformers ≤ 4.57 does. `ids [B, T]` → `[B, T, E]` (ids already checked by the model's `forward`, so not
 * read back again; T ≤ max positions).
 *
 * @example
 * const x = model.embeddings.forward(inputIds, tokenTypeIds); // [B, T] int32 -> [B, T, E]
 */
export class BertEmbeddings extends Module {
  readonly wordEmbeddings: Embedding;
  readonly positionEmbeddings: Embedding;
  /** Absent for families without token types (`typeVocabSize` 0: MPNet). */
  readonly tokenTypeEmbeddings: Embedding | undefined;
  readonly layerNorm: LayerNorm;
  readonly dropout: Dropout;
  readonly #absolute: boolean;
  readonly #config: EncoderConfig;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'BertEmbeddings', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.#config = c;
    this.#absolute = c.positionEmbeddingType === 'absolute';
    [this.wordEmbeddings, this.positionEmbeddings, this.tokenTypeEmbeddings, this.layerNorm, this.dropout] = this.guard(() => [
      this.registerModule('word_embeddings', new Embedding(c.vocabSize, c.hiddenSize, { paddingIdx: c.padTokenId })),
      this.registerModule('position_embeddings', new Embedding(c.maxPositionEmbeddings, c.hiddenSize)),
      c.typeVocabSize === 0 ? undefined : this.registerModule('token_type_embeddings', new Embedding(c.typeVocabSize, c.hiddenSize)),
      this.registerModule('LayerNorm', new LayerNorm(c.hiddenSize, { eps: c.layerNormEps })),
      this.registerModule('dropout', new Dropout(c.hiddenDropoutProb)),
    ] as const);
  }

  forward(inputIds: Tensor, tokenTypeIds: Tensor | undefined): Tensor {
    const caller = `${this.constructor.name}.forward`;
    this.assertLive(caller);
    checkEmbeddingIds(caller, this.#config, inputIds, this.tokenTypeEmbeddings === undefined ? undefined : tokenTypeIds); // read only when the model's forward has not
    return tidy(() => {
      const length = inputIds.shape[1] as number;
      const words = this.wordEmbeddings.forward(inputIds, { idsChecked: true }); // [B, T, E] (the model's forward checked the ids)
      const embedded = this.#absolute ? add(words, this.positionVectors(inputIds, length)) : words; // + [T, E] or [B, T, E]; relative: none
      const types = this.tokenTypeEmbeddings;
      const typed = types === undefined
        ? embedded
        : add(embedded, tokenTypeIds === undefined
          ? slice(types.weight, [0, 0], [1, -1]) // [1, E]: every token in segment 0
          : types.forward(tokenTypeIds, { idsChecked: true })); // [B, T, E]
      return this.dropout.forward(this.layerNorm.forward(typed));
    });
  }

  /** Position vectors of `T` tokens: positions 0..T-1 (T ≤ max positions, checked) → `[T, E]`. Families that count positions otherwise override this. */
  protected positionVectors(_inputIds: Tensor, length: number): Tensor {
    return slice(this.positionEmbeddings.weight, [0, 0], [length, -1]); // [T, E]
  }
}

/**
 * `attention.self`: query, key and value projections, then scaled dot-product attention over H heads.
 * With `position_embedding_type` `relative_key` or `relative_key_query`, `distance_embedding`
 * (`[2M − 1, D]`) gives each score its relative position term (`relativeKeyScores`, divided by √D
 * with `q · k`), as transformers ≤ 4.57's `BertSelfAttention`.
 *
 * @example
 * const { context } = layer.attention.self.forward(hidden, mask); // [B, T, E]
 * const { weights } = layer.attention.self.forward(hidden, mask, undefined, { outputAttentions: true }); // [B, H, T, T]
 */
export class BertSelfAttention extends Module {
  readonly numHeads: number;
  readonly query: Linear;
  readonly key: Linear;
  readonly value: Linear;
  /** `distance_embedding` `[2M − 1, D]`: relative position types only. */
  readonly distanceEmbedding: Embedding | undefined;
  readonly dropoutRate: number;
  readonly #relative: RelativeKeyType | undefined;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'BertSelfAttention', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.numHeads = c.numAttentionHeads;
    this.dropoutRate = c.attentionProbsDropoutProb;
    this.#relative = c.positionEmbeddingType === 'relative_key' || c.positionEmbeddingType === 'relative_key_query' ? c.positionEmbeddingType : undefined;
    [this.query, this.key, this.value, this.distanceEmbedding] = this.guard(() => [
      this.registerModule('query', new Linear(c.hiddenSize, c.hiddenSize)),
      this.registerModule('key', new Linear(c.hiddenSize, c.hiddenSize)),
      this.registerModule('value', new Linear(c.hiddenSize, c.hiddenSize)),
      this.#relative === undefined ? undefined : this.registerModule('distance_embedding', new Embedding(2 * c.maxPositionEmbeddings - 1, c.hiddenSize / c.numAttentionHeads)),
    ] as const);
  }

  /** `hidden [B, T, E]`, `mask` bool `[B, 1, 1, T]`, `bias` `[1, H, T, T]` added to the scores → `{ context [B, T, E], weights [B, H, T, T] (with outputAttentions) }`. */
  forward(hidden: Tensor, mask: Tensor | undefined, bias?: Tensor, options: LayerCallOptions = {}): { context: Tensor; weights: Tensor | undefined } {
    this.assertLive('BertSelfAttention.forward');
    checkLayerCall('BertSelfAttention.forward', hidden, mask, bias, options);
    return tidy(() => {
      if (this.#tokenMajor(hidden, mask, bias, options)) {
        // wasm, inference, no weights asked for: the attention reads the projections' [B, T, H, D] rows as they lie
        // (no split or merge transposes); int8 q, k, v as one product [B, T, 3E] (bit for bit the three)
        const attention = { ...(mask === undefined ? {} : { mask }), ...(bias === undefined ? {} : { bias }) };
        const [q, k, v] = [this.query, this.key, this.value] as const;
        const context = int8QkvFusable(q, k, v)
          ? fusedQkvAttention(int8QkvProjection(q as unknown as Int8Linear, k as unknown as Int8Linear, v as unknown as Int8Linear, hidden), this.numHeads, attention)
          : fusedAttentionTokens(q.forward(hidden), k.forward(hidden), v.forward(hidden), this.numHeads, attention); // [B, T, E]
        return { context, weights: undefined };
      }
      const heads = (projection: Linear) => splitHeads(projection.forward(hidden), this.numHeads); // [B, T, E] -> [B, H, T, D]
      const [query, key] = [heads(this.query), heads(this.key)];
      const scores = this.#relativeScores(query, key, bias); // [B, H, T, T] or the given bias
      const { output, weights } = attendHeads(query, key, heads(this.value), {
        mask,
        ...(scores === undefined ? {} : { bias: scores }),
        dropout: this.dropoutRate,
        training: this.training,
      }, options); // [B, H, T, D]
      return { context: mergeHeads(output), weights }; // [B, H, T, D] -> [B, T, E]
    });
  }

  /**
   * Whether this call runs the attention on the rows of tokens (`fusedAttentionTokens` or, int8,
   * `fusedQkvAttention`): absolute positions, no attention weights asked for, eval mode, the
   * fused attention kernel routed here (wasm, no gradient recorded), a rank-4 bool mask and
   * rank-4 float32 bias as the encoder passes them. The numbers are those of the split-heads path.
   */
  #tokenMajor(hidden: Tensor, mask: Tensor | undefined, bias: Tensor | undefined, options: LayerCallOptions): boolean {
    return this.#relative === undefined && options.outputAttentions !== true && !this.training
      && hidden.rank === 3 && (hidden.shape[2] as number) % this.numHeads === 0
      && (mask === undefined || (mask.dtype === 'bool' && mask.rank === 4))
      && (bias === undefined || (bias.dtype === 'float32' && bias.rank === 4))
      && kernelRoute('fusedAttention', [hidden, bias]).useKernel;
  }

  /** The relative position term over √D (plus `bias`), `[B, H, T, T]`; `bias` alone for absolute positions. */
  #relativeScores(query: Tensor, key: Tensor, bias: Tensor | undefined): Tensor | undefined {
    if (this.#relative === undefined || this.distanceEmbedding === undefined) return bias;
    const headDim = query.shape[3] as number;
    const scores = div(relativeKeyScores(query, key, this.distanceEmbedding.weight, this.#relative), Math.sqrt(headDim)); // (q·E [+ k·E]) / √D, as transformers divides the sum
    return bias === undefined ? scores : add(scores, bias);
  }
}

/**
 * `attention.output` and `output`: dense, dropout, residual, LayerNorm. `[B, T, in]` → `[B, T, E]`.
 *
 * @example
 * const attended = layer.attention.output.forward(context, hidden); // LN(dense(context) + hidden)
 */
export class BertResidualOutput extends Module {
  readonly dense: Linear;
  readonly layerNorm: LayerNorm;
  readonly dropout: Dropout;

  constructor(c: EncoderConfig, inFeatures: number) {
    super();
    checkObject(c, { caller: 'BertResidualOutput', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    [this.dense, this.layerNorm, this.dropout] = this.guard(() => [
      this.registerModule('dense', new Linear(inFeatures, c.hiddenSize)),
      this.registerModule('LayerNorm', new LayerNorm(c.hiddenSize, { eps: c.layerNormEps })),
      this.registerModule('dropout', new Dropout(c.hiddenDropoutProb)),
    ] as const);
  }

  forward(x: Tensor, residual: Tensor): Tensor {
    this.assertLive('BertResidualOutput.forward');
    return linearResidualLayerNorm(this.dense, x, residual, this.layerNorm, this.dropout); // LN(dropout(dense(x)) + residual); int8: in the kernel
  }
}

/**
 * `encoder.layer.N`: self-attention and a feed-forward block, each post-LN. `[B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const { hidden } = model.encoder.layer.at(0).forward(x, mask); // mask bool [B, 1, 1, T]
 */
export class BertLayer extends Module {
  readonly attention: ModuleDict<{ self: BertSelfAttention; output: BertResidualOutput }>;
  readonly intermediate: ModuleDict<{ dense: Linear }>;
  readonly output: BertResidualOutput;
  readonly activation: ActivationFunction;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'BertLayer', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.activation = activationByName(c.hiddenAct, 'BertLayer');
    [this.attention, this.intermediate, this.output] = this.guard(() => [
      this.registerModule('attention', new ModuleDict({ self: new BertSelfAttention(c), output: new BertResidualOutput(c, c.hiddenSize) })),
      this.registerModule('intermediate', new ModuleDict({ dense: new Linear(c.hiddenSize, c.intermediateSize) })),
      this.registerModule('output', new BertResidualOutput(c, c.intermediateSize)),
    ] as const);
  }

  /** `weights [B, H, T, T]` only with `outputAttentions`. */
  forward(hidden: Tensor, mask: Tensor | undefined, bias?: Tensor, options: LayerCallOptions = {}): { hidden: Tensor; weights: Tensor | undefined } {
    this.assertLive('BertLayer.forward');
    checkLayerCall('BertLayer.forward', hidden, mask, bias, options);
    return tidy(() => {
      const { context, weights } = this.attention.get('self').forward(hidden, mask, bias, options); // [B, T, E]
      const attended = this.attention.get('output').forward(context, hidden); // LN(dense(context) + hidden)
      const intermediate = linearThenActivation(this.intermediate.get('dense'), attended, this.activation); // [B, T, I]; int8 + GELU: fused in the kernel
      return { hidden: this.output.forward(intermediate, attended), weights }; // LN(dense(intermediate) + attended)
    });
  }
}

/** Inputs of {@link BertModel.forward} (those of every encoder). */
export type BertInputs = EncoderInputs;

/** Named outputs of {@link BertModel.forward}; the caller disposes them. */
export interface BertOutputs extends EncoderOutputs {
  /** `[B, E]`: `tanh(dense(h[:, 0]))`. */
  readonly poolerOutput: Tensor;
}

/**
 * A BERT encoder equal to Hugging Face's `BertModel` (post-LN, any `hidden_act`), composed of
 * `@attnkit/nn` layers in HF's module tree: `namedParameters()` are the checkpoint keys, so
 * `stateDict()` / `loadStateDict()` speak `model.safetensors`. Built without a checkpoint, it is
 * initialised as HF does (`N(0, initializer_range)`, zero biases, unit LayerNorms) for training.
 * RoBERTa and XLM-R are this model with their own position ids (`RobertaModel`).
 *
 * @example
 * const model = await loadBert('path/to/bert-folder');
 * const { lastHiddenState, poolerOutput } = model.forward({ inputIds, attentionMask, tokenTypeIds });
 */
export class BertModel extends Module implements Encoder {
  /** The `model_type`s this class builds. */
  static readonly modelTypes: readonly ModelType[] = ['bert'];
  readonly config: EncoderConfig;
  readonly embeddings: BertEmbeddings;
  readonly encoder: ModuleDict<{ layer: ModuleList<BertLayer> }>;
  readonly pooler: ModuleDict<{ dense: Linear }>;
  readonly initialisedKeys: readonly string[];

  /**
   * `checkpoint`: values by checkpoint key (no `bert.` prefix; tensors or `{ shape, values }` as
   * `readSafetensors` gives them), loaded strictly — except a pooler the checkpoint does not have at
   * all, which is initialised (see `initialisedKeys`). Without a checkpoint: Hugging Face's random
   * initialisation (`seed` makes it reproducible).
   */
  constructor(config: EncoderConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    checkObject(config, { caller: new.target.name, argument: 'config', expected: 'a parsed config (parseBertConfig, or parseEncoderConfig for any family)' });
    const c = config;
    const expected = (new.target as typeof BertModel).modelTypes;
    if (!expected.includes(c.modelType)) throw new InvalidArgumentError({ caller: new.target.name, argument: 'config.modelType', expected: expected.map((t) => `"${t}"`).join(' or '), received: JSON.stringify(c.modelType), hint: 'loadEncoder picks the model class from config.json.' });
    checkEncoderConfig(c, new.target.name);
    checkEncoderSize(c, new.target.name); // before any allocation
    checkBuildOptions(checkpoint, options, ['seed'], new.target.name);
    this.config = c;
    let initialised: string[] = [];
    [this.embeddings, this.encoder, this.pooler] = this.guard(() => {
      const parts = skipInitialization(() => [ // no random draw: the values come next
        this.registerModule('embeddings', this.createEmbeddings(c)),
        this.registerModule('encoder', new ModuleDict({ layer: new ModuleList(Array.from({ length: c.numHiddenLayers }, () => new BertLayer(c))) })),
        this.registerModule('pooler', new ModuleDict({ dense: new Linear(c.hiddenSize, c.hiddenSize) })),
      ] as const);
      const initialise = (keys?: readonly string[]) => initialiseLikeHuggingFace(this, c.initializerRange, options.seed, keys === undefined ? undefined : (name) => keys.includes(name));
      if (checkpoint === undefined) initialise();
      else initialised = loadCheckpoint(this, checkpoint, ['pooler.dense.weight', 'pooler.dense.bias'], initialise);
      return parts;
    });
    this.initialisedKeys = initialised;
  }

  /** The embeddings module; RoBERTa's counts positions from the padding id. */
  protected createEmbeddings(config: EncoderConfig): BertEmbeddings {
    return new BertEmbeddings(config);
  }

  /** Runs the encoder. Outputs are new tensors; dispose them. */
  forward(inputs: BertInputs): BertOutputs {
    const caller = `${this.className}.forward`;
    this.assertLive(caller);
    return encoderForward(caller, this.config, {
      embed: (ids, types) => this.embeddings.forward(ids, types),
      layers: this.encoder.get('layer'),
      pool: (hidden) => {
        const first = squeeze(slice(hidden, [0, 0, 0], [-1, 1, -1]), [1]); // [B, 1, E] -> [B, E]
        return tanh(this.pooler.get('dense').forward(first)); // tanh(dense(h[:, 0]))
      },
    }, inputs) as BertOutputs;
  }
}
