import { add, equal, notEqual, range, reshape, slice, squeeze, tanh, tidy, where, zerosLike, type Tensor } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '@attnkit/backends';
import { mergeHeads, scaledDotProductAttention, splitHeads } from '@attnkit/attention';
import { Dropout, Embedding, LayerNorm, Linear, Module, ModuleList, activationByName, initialValues, skipInitialization, type ActivationFunction, type StateDictSource } from '@attnkit/nn';
import type { BertConfig } from './bert-config.js';
import { checkIds, checkSequenceLength, type IdsInput } from './check-bert-inputs.js';

// The module tree mirrors Hugging Face's modeling_bert, so a parameter's dotted path is its
// checkpoint key (`encoder.layer.0.attention.self.query.weight`): loading is `loadStateDict`.

/**
 * `embeddings`: word + position + token type, then LayerNorm and dropout. `ids [B, T]` → `[B, T, E]`
 * (ids already checked by `BertModel.forward`, so not read back again; T ≤ max positions).
 *
 * @example
 * const x = model.embeddings.forward(inputIds, tokenTypeIds); // [B, T] int32 -> [B, T, E]
 */
export class BertEmbeddings extends Module {
  readonly wordEmbeddings: Embedding;
  readonly positionEmbeddings: Embedding;
  readonly tokenTypeEmbeddings: Embedding;
  readonly layerNorm: LayerNorm;
  readonly dropout: Dropout;

  constructor(c: BertConfig) {
    super();
    [this.wordEmbeddings, this.positionEmbeddings, this.tokenTypeEmbeddings, this.layerNorm, this.dropout] = this.guard(() => [
      this.registerModule('word_embeddings', new Embedding(c.vocabSize, c.hiddenSize, { paddingIdx: c.padTokenId })),
      this.registerModule('position_embeddings', new Embedding(c.maxPositionEmbeddings, c.hiddenSize)),
      this.registerModule('token_type_embeddings', new Embedding(c.typeVocabSize, c.hiddenSize)),
      this.registerModule('LayerNorm', new LayerNorm(c.hiddenSize, { eps: c.layerNormEps })),
      this.registerModule('dropout', new Dropout(c.hiddenDropoutProb)),
    ] as const);
  }

  forward(inputIds: Tensor, tokenTypeIds: Tensor | undefined): Tensor {
    this.assertLive('BertEmbeddings.forward');
    return tidy(() => {
      const length = inputIds.shape[1] as number;
      const words = this.wordEmbeddings.forward(inputIds, { idsChecked: true }); // [B, T, E] (BertModel.forward checked the ids)
      const positions = slice(this.positionEmbeddings.weight, [0, 0], [length, -1]); // [T, E]: positions 0..T-1 (T ≤ max positions, checked)
      const types = tokenTypeIds === undefined
        ? slice(this.tokenTypeEmbeddings.weight, [0, 0], [1, -1]) // [1, E]: every token in segment 0
        : this.tokenTypeEmbeddings.forward(tokenTypeIds, { idsChecked: true }); // [B, T, E]
      return this.dropout.forward(this.layerNorm.forward(add(add(words, positions), types)));
    });
  }
}

/**
 * `attention.self`: query, key and value projections, then scaled dot-product attention over H heads.
 *
 * @example
 * const { context, weights } = layer.attention.self.forward(hidden, mask); // [B, T, E], [B, H, T, T]
 */
export class BertSelfAttention extends Module {
  readonly numHeads: number;
  readonly query: Linear;
  readonly key: Linear;
  readonly value: Linear;
  readonly dropoutRate: number;

  constructor(c: BertConfig) {
    super();
    this.numHeads = c.numAttentionHeads;
    this.dropoutRate = c.attentionProbsDropoutProb;
    [this.query, this.key, this.value] = this.guard(() => [
      this.registerModule('query', new Linear(c.hiddenSize, c.hiddenSize)),
      this.registerModule('key', new Linear(c.hiddenSize, c.hiddenSize)),
      this.registerModule('value', new Linear(c.hiddenSize, c.hiddenSize)),
    ] as const);
  }

  /** `hidden [B, T, E]`, `mask` bool `[B, 1, 1, T]` → `{ context [B, T, E], weights [B, H, T, T] }`. */
  forward(hidden: Tensor, mask: Tensor | undefined): { context: Tensor; weights: Tensor } {
    this.assertLive('BertSelfAttention.forward');
    return tidy(() => {
      const heads = (projection: Linear) => splitHeads(projection.forward(hidden), this.numHeads); // [B, T, E] -> [B, H, T, D]
      const { output, attentionWeights } = scaledDotProductAttention(heads(this.query), heads(this.key), heads(this.value), {
        mask,
        dropout: this.dropoutRate,
        training: this.training,
      }); // [B, H, T, D]
      return { context: mergeHeads(output), weights: attentionWeights }; // [B, H, T, D] -> [B, T, E]
    });
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

  constructor(c: BertConfig, inFeatures: number) {
    super();
    [this.dense, this.layerNorm, this.dropout] = this.guard(() => [
      this.registerModule('dense', new Linear(inFeatures, c.hiddenSize)),
      this.registerModule('LayerNorm', new LayerNorm(c.hiddenSize, { eps: c.layerNormEps })),
      this.registerModule('dropout', new Dropout(c.hiddenDropoutProb)),
    ] as const);
  }

  forward(x: Tensor, residual: Tensor): Tensor {
    this.assertLive('BertResidualOutput.forward');
    return tidy(() => this.layerNorm.forward(add(this.dropout.forward(this.dense.forward(x)), residual)));
  }
}

/**
 * `encoder.layer.N`: self-attention and a feed-forward block, each post-LN. `[B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const { hidden, weights } = model.encoder.layer.at(0).forward(x, mask); // mask bool [B, 1, 1, T]
 */
export class BertLayer extends Module {
  readonly attention: Module & { readonly self: BertSelfAttention; readonly output: BertResidualOutput };
  readonly intermediate: Module & { readonly dense: Linear };
  readonly output: BertResidualOutput;
  readonly activation: ActivationFunction;

  constructor(c: BertConfig) {
    super();
    this.activation = activationByName(c.hiddenAct, 'BertLayer');
    [this.attention, this.intermediate, this.output] = this.guard(() => [
      this.registerModule('attention', children({ self: new BertSelfAttention(c), output: new BertResidualOutput(c, c.hiddenSize) })),
      this.registerModule('intermediate', children({ dense: new Linear(c.hiddenSize, c.intermediateSize) })),
      this.registerModule('output', new BertResidualOutput(c, c.intermediateSize)),
    ] as const);
  }

  forward(hidden: Tensor, mask: Tensor | undefined): { hidden: Tensor; weights: Tensor } {
    this.assertLive('BertLayer.forward');
    return tidy(() => {
      const { context, weights } = this.attention.self.forward(hidden, mask); // [B, T, E]
      const attended = this.attention.output.forward(context, hidden); // LN(dense(context) + hidden)
      const intermediate = this.activation(this.intermediate.dense.forward(attended)); // [B, T, I]
      return { hidden: this.output.forward(intermediate, attended), weights }; // LN(dense(intermediate) + attended)
    });
  }
}

/** A module that only groups named children (Hugging Face's `BertAttention`, `BertIntermediate`, `BertPooler` wrappers). */
class Children extends Module {
  constructor(named: Record<string, Module>) {
    super();
    this.guard(() => Object.entries(named).forEach(([name, child]) => Object.assign(this, { [name]: this.registerModule(name, child) })));
  }
}

/** `named` grouped under one module, each child reachable by its name. */
function children<C extends Record<string, Module>>(named: C): Module & Readonly<C> {
  return new Children(named) as Module & Readonly<C>;
}

/** Inputs of {@link BertModel.forward}: `[B, T]` each, as nested arrays or int32 tensors. */
export interface BertInputs {
  readonly inputIds: IdsInput;
  /** 1 = token, 0 = padding (Hugging Face `attention_mask`). Default: all ones. */
  readonly attentionMask?: IdsInput;
  /** Segment ids (0 for the first sentence, 1 for the second). Default: all zeros. */
  readonly tokenTypeIds?: IdsInput;
  /** Return every layer's attention weights `[B, H, T, T]`. */
  readonly outputAttentions?: boolean;
  /** Return the embeddings and every layer's output `[B, T, E]` (L + 1 tensors). */
  readonly outputHiddenStates?: boolean;
}

/** Named outputs of {@link BertModel.forward}; the caller disposes them. */
export interface BertOutputs {
  /** `[B, T, E]`. */
  readonly lastHiddenState: Tensor;
  /** `[B, E]`: `tanh(dense(h[:, 0]))`. */
  readonly poolerOutput: Tensor;
  /** The embeddings and every layer's output; the last is the same tensor as `lastHiddenState` (dispose each once). */
  readonly hiddenStates?: Tensor[];
  readonly attentions?: Tensor[];
}

/**
 * A BERT encoder equal to Hugging Face's `BertModel` (post-LN, any `hidden_act`), composed of
 * `@attnkit/nn` layers in HF's module tree: `namedParameters()` are the checkpoint keys, so
 * `stateDict()` / `loadStateDict()` speak `model.safetensors`. Built without a checkpoint, it is
 * initialised as HF does (`N(0, initializer_range)`, zero biases, unit LayerNorms) for training.
 *
 * @example
 * const model = await loadBert('path/to/bert-folder');
 * const { lastHiddenState, poolerOutput } = model.forward({ inputIds, attentionMask, tokenTypeIds });
 */
export class BertModel extends Module {
  readonly config: BertConfig;
  readonly embeddings: BertEmbeddings;
  readonly encoder: Module & { readonly layer: ModuleList<BertLayer> };
  readonly pooler: Module & { readonly dense: Linear };

  /**
   * Parameters not in the checkpoint, initialised instead: the pooler of a checkpoint saved without
   * one (Hugging Face's `add_pooling_layer=False`: token-classification, question-answering and
   * masked-LM models), as transformers does; empty otherwise.
   */
  readonly initialisedKeys: readonly string[];

  /**
   * `checkpoint`: values by checkpoint key (no `bert.` prefix; tensors or `{ shape, values }` as
   * `readSafetensors` gives them), loaded strictly — except a pooler the checkpoint does not have at
   * all, which is initialised (see `initialisedKeys`). Without a checkpoint: Hugging Face's random
   * initialisation (`seed` makes it reproducible).
   */
  constructor(config: BertConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    this.config = config;
    let initialised: string[] = [];
    [this.embeddings, this.encoder, this.pooler] = this.guard(() => {
      const parts = skipInitialization(() => [ // no random draw: the values come next
        this.registerModule('embeddings', new BertEmbeddings(config)),
        this.registerModule('encoder', children({ layer: new ModuleList(Array.from({ length: config.numHiddenLayers }, () => new BertLayer(config))) })),
        this.registerModule('pooler', children({ dense: new Linear(config.hiddenSize, config.hiddenSize) })),
      ] as const);
      if (checkpoint === undefined) {
        this.#initialise(options.seed, () => true);
        return parts;
      }
      const pooler = ['pooler.dense.weight', 'pooler.dense.bias'];
      const has = (key: string) => (checkpoint instanceof Map ? checkpoint.has(key) : typeof checkpoint === 'object' && checkpoint !== null && Object.hasOwn(checkpoint, key));
      if (pooler.every((key) => !has(key))) {
        initialised = pooler;
        this.#initialise(options.seed, (name) => pooler.includes(name));
        const own = new Map(this.namedParameters());
        const entries = checkpoint instanceof Map ? [...checkpoint] : Object.entries(checkpoint);
        this.loadStateDict(new Map([...entries, ...pooler.map((key) => [key, own.get(key)!] as const)])); // strict for everything else
      } else {
        this.loadStateDict(checkpoint);
      }
      return parts;
    });
    this.initialisedKeys = initialised;
  }

  /** Runs the encoder. Outputs are new tensors; dispose them. */
  forward(inputs: BertInputs): BertOutputs {
    const caller = 'BertModel.forward';
    this.assertLive(caller);
    assertBackendReady(caller);
    const { vocabSize, typeVocabSize } = this.config;
    const owned: Tensor[] = [];
    const take = ({ ids, created }: { ids: Tensor; created: boolean }): Tensor => (created && owned.push(ids), ids);
    try {
      const inputIds = take(checkIds(caller, 'inputIds', inputs.inputIds, vocabSize));
      const [batch = 0, length = 0] = inputIds.shape;
      checkSequenceLength(caller, this.config, length);
      const attentionMask = inputs.attentionMask === undefined ? undefined : take(checkIds(caller, 'attentionMask', inputs.attentionMask, 2, [batch, length]));
      const tokenTypeIds = inputs.tokenTypeIds === undefined ? undefined : take(checkIds(caller, 'tokenTypeIds', inputs.tokenTypeIds, typeVocabSize, [batch, length]));
      return tidy(() => {
        // 1. Embeddings; 2. the key padding mask, built once: [B, T] 0/1 -> bool [B, 1, 1, T] (true = may attend)
        let hidden = this.embeddings.forward(inputIds, tokenTypeIds); // [B, T, E]
        const mask = attentionMask === undefined ? undefined : reshape(notEqual(attentionMask, 0), [batch, 1, 1, length]);

        // 3. N layers
        const hiddenStates: Tensor[] = [hidden];
        const attentions: Tensor[] = [];
        for (const layer of this.encoder.layer) {
          const out = layer.forward(hidden, mask);
          hidden = out.hidden;
          hiddenStates.push(hidden);
          attentions.push(out.weights); // [B, H, T, T]
        }

        // 4. Pooler: tanh(dense(h[:, 0]))
        const first = squeeze(slice(hidden, [0, 0, 0], [batch, 1, -1]), [1]); // [B, 1, E] -> [B, E]
        const poolerOutput = tanh(this.pooler.dense.forward(first));

        return {
          lastHiddenState: hidden,
          poolerOutput,
          ...(inputs.outputHiddenStates === true ? { hiddenStates } : {}),
          ...(inputs.outputAttentions === true ? { attentions } : {}),
        };
      });
    } finally {
      owned.forEach((t) => t.dispose());
    }
  }

  /** Hugging Face's `_init_weights` on the parameters `which` selects: weights `N(0, initializer_range)`, biases 0, LayerNorm 1 / 0, padding row 0. */
  #initialise(seed: number | undefined, which: (name: string) => boolean): void {
    const std = this.config.initializerRange;
    const pad = `embeddings.word_embeddings.weight`;
    this.namedParameters().forEach(([name, parameter], i) => {
      if (!which(name)) return;
      const norm = name.includes('LayerNorm.');
      const init = name.endsWith('.bias') ? { constant: 0 } : norm ? { constant: 1 } : { normal: std };
      tidy(() => {
        const values = initialValues(parameter.shape, init, seed === undefined ? undefined : seed + i);
        const padding = () => reshape(equal(range(0, parameter.shape[0] as number, 1, 'int32'), this.config.padTokenId), [-1, 1]); // [V, 1]
        parameter.assign(name === pad ? where(padding(), zerosLike(values), values) : values);
      });
    });
  }
}
