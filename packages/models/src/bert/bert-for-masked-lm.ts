import { add, concat, matMul, reshape, slice, tensor1d, tidy, zeros, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkObject, checkOptionKeys, checkTensor, describeValue, formatShape } from '@attnkit/errors';
import { LayerNorm, Linear, Module, activationByName, gatherRows, skipInitialization, type ActivationFunction, type StateDictSource, ModuleDict } from '@attnkit/nn';
import { BertModel } from './bert-model.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/**
 * `cls.predictions`: Hugging Face's `BertLMPredictionHead` — `transform` (dense, activation,
 * LayerNorm), then a decoder whose weight is the word embedding matrix (tied) plus its own `bias`.
 * `hidden [N, E]` (or `[B, T, E]`) and `wordEmbeddings [V, E]` → logits `[N, V]` (or `[B, T, V]`).
 *
 * @example
 * const logits = head.forward(hidden, model.bert.embeddings.wordEmbeddings.weight); // [N, E] -> [N, V]
 */
export class BertLMPredictionHead extends Module {
  readonly transform: ModuleDict<{ dense: Linear; LayerNorm: LayerNorm }>;
  /** `[V]`: the decoder's bias (`cls.predictions.bias`, which transformers also names `cls.predictions.decoder.bias`). */
  readonly bias: Variable;
  readonly activation: ActivationFunction;

  constructor(c: EncoderConfig) {
    super();
    checkObject(c, { caller: 'BertLMPredictionHead', argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' });
    this.activation = activationByName(c.hiddenAct, 'BertLMPredictionHead');
    [this.transform, this.bias] = this.guard(() => [
      this.registerModule('transform', new ModuleDict({ dense: new Linear(c.hiddenSize, c.hiddenSize), LayerNorm: new LayerNorm(c.hiddenSize, { eps: c.layerNormEps }) })),
      this.registerParameter('bias', zeros([c.vocabSize])),
    ] as const);
  }

  forward(hidden: Tensor, wordEmbeddings: Tensor): Tensor {
    const caller = 'BertLMPredictionHead.forward';
    this.assertLive(caller);
    const width = checkTensor(hidden, { caller, argument: 'hidden', dtype: 'float32', rank: [2, 3], shape: '[N, E] or [B, T, E]' }).shape.at(-1) as number;
    const table = checkTensor(wordEmbeddings, { caller, argument: 'wordEmbeddings', dtype: 'float32', rank: 2, shape: '[V, E]' });
    if (table.shape[1] !== width) throw new InvalidArgumentError({ caller, argument: 'wordEmbeddings', expected: `[V, E] with E = ${width} (the width of hidden)`, received: formatShape(table.shape) });
    return tidy(() => {
      const shape = hidden.shape;
      const flat = reshape(hidden, [-1, shape.at(-1) as number]); // [..., E] -> [N, E]
      const transformed = this.transform.get('LayerNorm').forward(this.activation(this.transform.get('dense').forward(flat))); // [N, E]
      const logits = add(matMul(transformed, wordEmbeddings, false, true), this.bias); // [N, E] x [V, E]ᵀ -> [N, V]
      return reshape(logits, [...shape.slice(0, -1), wordEmbeddings.shape[0] as number]); // [N, V] -> [..., V]
    });
  }
}

/** Options of {@link BertForMaskedLM.forward}. */
export interface MaskedLMForwardOptions {
  /**
   * Flat positions `b · T + t` (int32 `[N]`, or numbers) whose logits are wanted: the head then runs
   * on those N rows only (`[N, V]` instead of `[B, T, V]`), which is what training needs — the
   * vocabulary projection is most of the cost and only masked positions have a label.
   */
  readonly positions?: Tensor | readonly number[];
}

/** The checkpoint keys of {@link BertForMaskedLM}'s head that the file stores (the decoder weight is the tied word embeddings). */
export const MASKED_LM_HEAD_KEYS = ['cls.predictions.bias', 'cls.predictions.transform.dense.weight', 'cls.predictions.transform.dense.bias', 'cls.predictions.transform.LayerNorm.weight', 'cls.predictions.transform.LayerNorm.bias'] as const;

/**
 * Hugging Face's `BertForMaskedLM`: a {@link BertModel} under `bert` and the masked-language-model
 * head under `cls.predictions`, its decoder tied to the word embeddings — the module tree of the
 * checkpoint, so `namedParameters()` are its keys (`bert.embeddings.word_embeddings.weight`,
 * `cls.predictions.transform.dense.weight`, ...). The encoder's pooler is kept (BertModel has
 * one) but takes no part in the logits; `maskedLMParameters()` leaves it out, as the checkpoint does.
 * Built without a head checkpoint, the head is initialised as transformers does (`seed`).
 *
 * `inputs` as {@link BertModel.forward} → `{ logits [B, T, V] }`, or `[N, V]` with `positions`.
 *
 * @example
 * const mlm = await loadBertForMaskedLM('./attnkit-tiny-bert'); // a BERT folder, with or without cls.* tensors
 * const { logits } = mlm.forward({ inputIds: [[2, 5, 4, 3]] }); // [1, 4, V]
 */
export class BertForMaskedLM extends Module {
  readonly config: EncoderConfig;
  readonly bert: BertModel;
  readonly cls: ModuleDict<{ predictions: BertLMPredictionHead }>;
  /** Head keys initialised because the checkpoint had no head (all of {@link MASKED_LM_HEAD_KEYS}), else empty; and the encoder's own (`bert.pooler.*`). */
  readonly initialisedKeys: readonly string[];

  /**
   * `encoder`: a BertModel to wrap (owned from now on) or its config (a new, randomly initialised
   * encoder). `head`: the head's tensors by checkpoint key (`cls.predictions.*`); without it the
   * head is initialised with `seed`.
   */
  constructor(encoder: BertModel | EncoderConfig, head?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    const caller = 'BertForMaskedLM';
    checkBuildOptions(head, options, ['seed'], caller);
    if (encoder instanceof BertModel && encoder.isDisposed) throw new InvalidArgumentError({ caller, argument: 'encoder', expected: 'a live BertModel', received: 'a disposed one' });
    if (encoder instanceof Module && !(encoder instanceof BertModel)) throw new InvalidArgumentError({ caller, argument: 'encoder', expected: 'a BertModel (RoBERTa\'s and other families\' heads are named otherwise)', received: `a ${(encoder as Module).className}` });
    if (!(encoder instanceof BertModel) && (typeof encoder !== 'object' || encoder === null)) throw new InvalidArgumentError({ caller, argument: 'encoder', expected: 'a BertModel or a BERT config', received: describeValue(encoder) });
    let initialised: string[] = [];
    [this.bert, this.cls] = this.guard(() => {
      const bert = this.registerModule('bert', encoder instanceof BertModel ? encoder : new BertModel(encoder, undefined, options.seed === undefined ? {} : { seed: options.seed }));
      const cls = this.registerModule('cls', new ModuleDict({ predictions: skipInitialization(() => new BertLMPredictionHead(bert.config)) }));
      if (head === undefined) {
        initialiseLikeHuggingFace(cls, bert.config.initializerRange, options.seed === undefined ? undefined : options.seed + 7919);
        initialised = [...MASKED_LM_HEAD_KEYS];
      } else {
        const entries: Array<[string, unknown]> = head instanceof Map ? [...head] : Object.entries(head);
        cls.loadStateDict(new Map(entries.map(([key, value]) => [key.replace(/^cls\./, ''), value] as [string, never])));
      }
      return [bert, cls] as const;
    });
    this.config = this.bert.config;
    this.initialisedKeys = [...initialised, ...this.bert.initialisedKeys.map((key) => `bert.${key}`)];
  }

  /** The parameters the logits depend on (every one but the pooler's), with their checkpoint keys: what to train and save. */
  maskedLMParameters(): Array<[string, Variable]> {
    return this.namedParameters().filter(([name]) => !name.startsWith('bert.pooler.'));
  }

  /** Runs the encoder and the head. `options.positions` selects flat positions `b · T + t`. Outputs are new tensors; dispose them. */
  forward(inputs: EncoderInputs, options: MaskedLMForwardOptions = {}): { logits: Tensor } {
    const caller = 'BertForMaskedLM.forward';
    this.assertLive(caller);
    checkOptionKeys(options, ['positions'], caller);
    const out = this.bert.forward(inputs);
    try {
      return tidy(() => {
        const hidden = out.lastHiddenState; // [B, T, E]
        const [batch, length, width] = hidden.shape as [number, number, number];
        if (options.positions === undefined) return { logits: this.cls.get('predictions').forward(hidden, this.bert.embeddings.wordEmbeddings.weight) }; // [B, T, V]
        let positions = checkPositions(options.positions, batch * length, caller); // [N]
        const single = positions.shape[0] === 1;
        // One position is selected twice and the copy dropped below: the gradients of a product over
        // a shared dimension of 1 come out of tfjs' webgl backend 100x less precise (5e-3 of scale, against 1e-7 with 2).
        if (single) positions = concat([positions, positions]); // [1] -> [2]
        const rows = gatherRows(reshape(hidden, [batch * length, width]), positions); // [B·T, E] -> [N, E]; its gradient is one scatterND on every backend
        const logits = this.cls.get('predictions').forward(rows, this.bert.embeddings.wordEmbeddings.weight); // [N, V]
        return { logits: single ? slice(logits, [0, 0], [1, -1]) : logits }; // [2, V] -> [1, V]
      });
    } finally {
      out.lastHiddenState.dispose();
      out.poolerOutput.dispose();
    }
  }
}

/** The positions as an int32 tensor `[N]` (a new one, inside the caller's tidy, for an array), every value checked. */
function checkPositions(positions: Tensor | readonly number[], count: number, caller: string): Tensor {
  if (Array.isArray(positions)) {
    const bad = positions.findIndex((p) => !Number.isInteger(p) || p < 0 || p >= count);
    if (bad >= 0) throw new InvalidArgumentError({ caller, argument: `positions[${bad}]`, expected: `an integer in [0, B·T) = [0, ${count})`, received: describeValue(positions[bad]) });
    return tensor1d(positions, 'int32');
  }
  const tensor = positions as Tensor;
  if (typeof tensor !== 'object' || tensor === null || typeof tensor.rank !== 'number' || tensor.rank !== 1 || tensor.dtype !== 'int32') throw new InvalidArgumentError({ caller, argument: 'positions', expected: 'an int32 tensor [N] or an array of integers', received: describeValue(positions) });
  const values = tensor.dataSync(); // N integers: cheap, and an out-of-range index would read garbage on some backends
  const bad = values.findIndex((p) => p < 0 || p >= count);
  if (bad >= 0) throw new InvalidArgumentError({ caller, argument: `positions[${bad}]`, expected: `an integer in [0, B·T) = [0, ${count})`, received: String(values[bad]) });
  return tensor;
}
