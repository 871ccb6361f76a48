import { concat, gather, reshape, softmax, tensor1d, tidy, zeros, type Tensor, type Tensor1D, type Tensor2D } from '@tensorflow/tfjs-core';
import { checkAbortSignal, checkBoolean, checkInteger, checkObject, checkOptionKeys, describeValue, InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { callBackend } from '@attnkit/backends';
import type { SequenceClassifier } from '@attnkit/models';
import { withoutNullOptions } from '../without-null-options.js';
import type { Tokenizer } from '@attnkit/tokenizers';
import { applyCrossEncoderActivation, CROSS_ENCODER_ACTIVATIONS, type CrossEncoderActivation } from './cross-encoder-activation.js';
import { checkPairs } from './check-pairs.js';
import { checkEncoderParts } from '../check-encoder-parts.js';
import type { CrossEncoderFolder } from './read-cross-encoder-folder.js';

/** Options of {@link CrossEncoder.predict}, named like `CrossEncoder.predict`'s in sentence-transformers. A `null` option is left out (its default, as `None` there). */
export interface CrossEncoderPredictOptions {
  /** Pairs per forward pass (default 32). Pairs are sorted by length first; scores come back in input order. */
  readonly batchSize?: number;
  /** Applied to the logits instead of the folder's activation (`'identity'`: the raw logits). */
  readonly activation?: CrossEncoderActivation;
  /** After the activation, a softmax over the labels (sentence-transformers' `apply_softmax`; with one label every score becomes 1). */
  readonly applySoftmax?: boolean;
  /** A prompt of the folder's `prompts`, prepended to the first text of every pair. */
  readonly promptName?: string;
  /** A prompt text prepended to the first text of every pair; wins over `promptName`. Without either, the folder's `default_prompt_name` applies. */
  readonly prompt?: string;
  /** Stops between batches: the call rejects with the signal's reason (an `AbortError`), leaving no tensor behind. */
  readonly signal?: AbortSignal;
}

/** Options of {@link CrossEncoder.rank}: `predict`'s, and how many documents to return. */
export interface CrossEncoderRankOptions extends CrossEncoderPredictOptions {
  /** The best `topK` documents (default: all). */
  readonly topK?: number;
  /** Also return each document's text (default false). */
  readonly returnDocuments?: boolean;
}

/** One ranked document: its index in the documents given, its score, and its text when asked for. */
export interface RankedDocument {
  readonly corpusId: number;
  readonly score: number;
  readonly text?: string;
}

const PREDICT_KEYS = ['batchSize', 'activation', 'applySoftmax', 'promptName', 'prompt', 'signal'] as const;

/**
 * A cross-encoder as its folder says: a sequence classifier of any encoder family, its tokenizer,
 * the folder's `max_length`, activation and prompts — equal to sentence-transformers 6.0.1's
 * `CrossEncoder(folder)`: `predict` scores `[query, document]` pairs read together, `rank` sorts
 * documents by their score against a query.
 *
 * @example
 * const model = await loadCrossEncoder('./ms-marco-MiniLM-L6-v2');
 * const scores = await model.predict([['How many people live in Berlin?', 'Berlin has 3.5 million people.']]); // [1]
 * const ranked = await model.rank('How many people live in Berlin?', ['Berlin has 3.5 million people.', 'Paris is in France.'], { topK: 1 });
 */
export class CrossEncoder {
  readonly model: SequenceClassifier;
  readonly tokenizer: Tokenizer;
  readonly folder: CrossEncoderFolder;
  /** Longest pair in tokens, special tokens included; longer pairs are cut longest first. */
  readonly maxLength: number;
  /** The activation `predict` applies unless told otherwise: the folder's, else sigmoid for one label and identity for several. */
  readonly activation: CrossEncoderActivation;
  #disposed = false;

  constructor(model: SequenceClassifier, tokenizer: Tokenizer, folder: CrossEncoderFolder) {
    for (const [argument, value, kind] of [['model', model, 'a SequenceClassifier (loadSequenceClassifier)'], ['tokenizer', tokenizer, 'a Tokenizer (loadTokenizer)'], ['folder', folder, 'a CrossEncoderFolder (readCrossEncoderFolder)']] as const) checkObject(value, { caller: 'CrossEncoder', argument, expected: kind });
    if (typeof model.forward !== 'function' || typeof (model as { config?: { numLabels?: unknown } }).config?.numLabels !== 'number') throw new InvalidArgumentError({ caller: 'CrossEncoder', argument: 'model', expected: 'a SequenceClassifier (loadSequenceClassifier)', received: describeValue(model) });
    checkEncoderParts('CrossEncoder', tokenizer, folder, 'a CrossEncoderFolder (readCrossEncoderFolder)', false);
    this.model = model;
    this.tokenizer = tokenizer;
    this.folder = folder;
    this.maxLength = folder.maxSeqLength ?? Math.min(tokenizer.modelMaxLength, model.config.maxPositionEmbeddings);
    this.activation = folder.activation ?? (model.config.numLabels === 1 ? 'sigmoid' : 'identity');
  }

  /** Outputs per pair: `num_labels` of the folder's config.json. */
  get numLabels(): number {
    return this.model.config.numLabels;
  }

  /**
   * Scores `[first, second]` pairs as `CrossEncoder.predict` does: the prompt prepended to each
   * first text, pairs sorted by length and run `batchSize` at a time, cut to `maxLength` tokens
   * (longest first), logits through the activation (then `applySoftmax`). N pairs → `[N]` for a
   * one-label model, `[N, numLabels]` otherwise (a tensor to dispose; `[0]` / `[0, L]` for none).
   * Every batch runs on the backend active when `predict` was called; `dispose()` while a call is
   * pending makes it reject with `UseAfterDisposeError`; `signal` aborts it between batches.
   *
   * @example
   * const scores = await model.predict([['query', 'a passage'], ['query', 'another']], { batchSize: 16 }); // Tensor1D [2]
   */
  async predict(pairs: ReadonlyArray<readonly [string, string]>, options: CrossEncoderPredictOptions = {}): Promise<Tensor1D | Tensor2D> {
    const caller = 'CrossEncoder.predict';
    if (this.#disposed) throw new UseAfterDisposeError(caller);
    const backend = callBackend(caller);
    const { batchSize, activation, applySoftmax, prompt } = this.#options(options, caller);
    const given = checkPairs(pairs, caller);
    // longest first (by characters, as sentence-transformers sorts), stable; scores go back to input order
    const length = ([a, b]: readonly [string, string]) => a.length + b.length;
    const order = given.map((_, i) => i).sort((a, b) => length(given[b]!) - length(given[a]!) || a - b);
    const pieces: Tensor[] = [];
    try {
      for (let start = 0; start < order.length; start += batchSize) {
        options.signal?.throwIfAborted();
        await backend.settled();
        if (this.#disposed) throw new UseAfterDisposeError(caller);
        const rows = order.slice(start, start + batchSize).map((i) => [prompt + given[i]![0], given[i]![1]] as const);
        const batch = this.tokenizer.encode(rows, { maxLength: this.maxLength, truncation: 'longest_first', padding: 'longest' });
        backend.run(() => {
          const { logits } = this.model.forward({ inputIds: batch.inputIds, attentionMask: batch.attentionMask, tokenTypeIds: batch.tokenTypeIds });
          pieces.push(tidy(() => {
            const scores = applyCrossEncoderActivation(logits, activation); // [b, L]
            return applySoftmax ? softmax(scores, -1) : scores;
          }));
          logits.dispose();
        });
        if (start + batchSize < order.length) await new Promise((resolve) => setTimeout(resolve, 0));
      }
    } catch (error) {
      pieces.forEach((t) => t.dispose());
      throw error;
    }
    const labels = this.numLabels;
    const scores = backend.run(() => tidy(() => {
      if (pieces.length === 0) return labels === 1 ? zeros([0]) : zeros([0, labels]);
      const back = new Int32Array(order.length);
      order.forEach((row, position) => (back[row] = position));
      const all = gather(concat(pieces, 0), tensor1d(back, 'int32')); // [N, L] in input order
      return labels === 1 ? reshape(all, [order.length]) : all; // [N, 1] -> [N]
    }));
    pieces.forEach((t) => t.dispose());
    return scores as Tensor1D | Tensor2D;
  }

  /**
   * Scores every document against `query` (`predict` on `[query, document]` pairs) and sorts them
   * by score, highest first, as `CrossEncoder.rank` does: equal scores keep the documents' order;
   * `topK` keeps the best; `returnDocuments` adds each document's text. One-label models only.
   *
   * @example
   * const [best] = await model.rank('How many people live in Berlin?', passages, { topK: 3, returnDocuments: true });
   * console.log(best.corpusId, best.score, best.text);
   */
  async rank(query: string, documents: readonly string[], options: CrossEncoderRankOptions = {}): Promise<RankedDocument[]> {
    const caller = 'CrossEncoder.rank';
    if (this.#disposed) throw new UseAfterDisposeError(caller);
    const { topK, returnDocuments, ...predict } = withoutNullOptions(checkObject(options, { caller, argument: 'options' })); // a null option reads as absent, as None in sentence-transformers
    if (this.numLabels !== 1) throw new InvalidArgumentError({ caller, argument: 'this', expected: 'a cross-encoder with one label (a relevance score)', received: `one with ${this.numLabels} labels`, hint: 'Score pairs with predict() instead.' });
    if (typeof query !== 'string') throw new InvalidArgumentError({ caller, argument: 'query', expected: 'a string', received: describeValue(query) });
    if (!Array.isArray(documents)) throw new InvalidArgumentError({ caller, argument: 'documents', expected: 'a list of strings', received: describeValue(documents) });
    const texts: readonly unknown[] = Array.from(documents);
    texts.forEach((text, i) => {
      if (typeof text !== 'string') throw new InvalidArgumentError({ caller, argument: `documents[${i}]`, expected: 'a string', received: describeValue(text) });
    });
    const keep = topK === undefined ? texts.length : checkInteger(topK, { caller, argument: 'topK', min: 1, max: Number.MAX_SAFE_INTEGER });
    checkBoolean(returnDocuments, { caller, argument: 'returnDocuments', fallback: false });
    checkOptionKeys(predict, PREDICT_KEYS, caller);
    const scores = await this.predict(texts.map((text) => [query, text as string] as const), predict);
    const values = await scores.data();
    scores.dispose();
    const ranked = Array.from(values, (score, corpusId) => ({ corpusId, score, ...(returnDocuments === true ? { text: texts[corpusId] as string } : {}) }));
    return ranked.sort((a, b) => b.score - a.score).slice(0, keep); // a stable sort: ties keep the documents' order, as Python's sorted()
  }

  /** Frees the model's weights; later calls throw `UseAfterDisposeError`. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.model.dispose();
  }

  /** The options of one call, checked, with their defaults. */
  #options(given: CrossEncoderPredictOptions, caller: string): { batchSize: number; activation: CrossEncoderActivation; applySoftmax: boolean; prompt: string } {
    checkOptionKeys(given, PREDICT_KEYS, caller);
    const options = withoutNullOptions(given); // a null option reads as absent, as None in sentence-transformers
    const batchSize = checkInteger(options.batchSize ?? 32, { caller, argument: 'batchSize', min: 1 });
    const activation = options.activation ?? this.activation;
    if (!(CROSS_ENCODER_ACTIVATIONS as readonly unknown[]).includes(activation)) throw new InvalidArgumentError({ caller, argument: 'activation', expected: CROSS_ENCODER_ACTIVATIONS.map((a) => `'${a}'`).join(', '), received: describeValue(activation) });
    const applySoftmax = checkBoolean(options.applySoftmax, { caller, argument: 'applySoftmax', fallback: false });
    checkAbortSignal(options.signal, { caller });
    return { batchSize, activation, applySoftmax, prompt: this.#prompt(options, caller) };
  }

  /** The prompt of a call: `prompt`, else `promptName`'s, else the folder's default, else none (`''`). */
  #prompt(options: CrossEncoderPredictOptions, caller: string): string {
    if (options.prompt !== undefined) {
      if (typeof options.prompt !== 'string') throw new InvalidArgumentError({ caller, argument: 'prompt', expected: 'a string', received: describeValue(options.prompt) });
      return options.prompt;
    }
    const name = options.promptName ?? this.folder.defaultPromptName;
    if (name === undefined) return '';
    const text = this.folder.prompts.get(name);
    if (text === undefined) throw new InvalidArgumentError({ caller, argument: 'promptName', expected: `one of the folder's prompts (${[...this.folder.prompts.keys()].map((p) => `'${p}'`).join(', ') || 'it has none'})`, received: describeValue(name) });
    return text;
  }
}
