import { concat, gather, reshape, slice, tensor1d, tensor2d, tidy, zeros, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { checkObject, describeValue, InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { callBackend } from '@attnkit/backends';
import type { Tokenizer } from '@attnkit/tokenizers';
import { checkEncodeOptions, encodeOptionsWithoutNulls, checkRanges, checkTexts } from './check-encode-options.js';
import { l2Normalize } from './l2-normalize.js';
import { Dense } from './modules/dense.js';
import { checkEncoderParts } from './check-encoder-parts.js';
import { Pooling } from './modules/pooling.js';
import { quantizeEmbeddings, type Precision, type QuantizationRanges, type QuantizedEmbeddings } from './quantize-embeddings.js';
import type { SentenceFolder } from './read-sentence-folder.js';
import { similarity, type SimilarityFunction } from './similarity.js';
import { isDecoderModel, type SentenceTransformerModel } from './sentence-transformer-model.js';

/** Options of {@link SentenceEncoder.encode}, named like `SentenceTransformer.encode`'s. A `null` option (any of them) is left out: its default, as `None` there (`normalize_embeddings=None` is falsy). */
export interface SentenceEncodeOptions {
  /** Texts per forward pass (default 32). Texts are sorted by token count first (longest first), so each batch pads little; results come back in input order. */
  readonly batchSize?: number;
  /** A prompt of the folder's `prompts` to prepend (`'query'`, `'passage'`, ...). */
  readonly promptName?: string;
  /** A prompt text to prepend; wins over `promptName`. Without either, the folder's `default_prompt_name` applies. */
  readonly prompt?: string;
  /** Scale each embedding to unit length, after `truncateDim`. Default false (`null` too, as `normalize_embeddings=None`). */
  readonly normalize?: boolean;
  /** Keep the first `truncateDim` dimensions (Matryoshka models). Default: the folder's, else all. */
  readonly truncateDim?: number;
  /** `'float32'` (default) or a quantized precision (`'int8'`, `'uint8'`, `'binary'`, `'ubinary'`), as sentence-transformers quantizes. */
  readonly precision?: Precision;
  /** For `int8` / `uint8`: per-dimension calibration ranges (default: computed from these embeddings, as sentence-transformers does). */
  readonly ranges?: QuantizationRanges;
  /**
   * `'sentence_embedding'` (default) or `'token_embeddings'`: each text's `[length, E]` token vectors up
   * to its last token, as sentence-transformers cuts them: right padding removed; with a left-padding
   * tokenizer (decoder models) the row keeps the batch's padding before the text, as sentence-transformers does.
   */
  readonly outputValue?: 'sentence_embedding' | 'token_embeddings';
  /** Called after each batch with the texts done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Stops between batches: the call rejects with the signal's reason (an `AbortError`), leaving no tensor behind. */
  readonly signal?: AbortSignal;
}


/** {@link SentenceEncoder.encode} options that give float32 embeddings `[N, E]`. */
export type SentenceEncodeFloatOptions = SentenceEncodeOptions & { readonly precision?: 'float32'; readonly outputValue?: 'sentence_embedding' };
/** {@link SentenceEncoder.encode} options that give quantized embeddings (int8, uint8, binary, ubinary). */
export type SentenceEncodeQuantizedOptions = SentenceEncodeOptions & { readonly precision: Exclude<Precision, 'float32'>; readonly outputValue?: 'sentence_embedding' };
/** {@link SentenceEncoder.encode} options that give each text's token embeddings `[T, E]`. */
export type SentenceEncodeTokenOptions = SentenceEncodeOptions & { readonly outputValue: 'token_embeddings' };

/**
 * A sentence embedding model as its folder says: the encoder (or decoder) of the folder's `model_type`, its
 * tokenizer (with `do_lower_case` and `max_seq_length` applied), pooling, Dense and Normalize
 * modules, prompts and similarity function — equal to `SentenceTransformer(folder).encode`.
 *
 * @example
 * const model = await loadSentenceEncoder('./all-MiniLM-L6-v2');
 * const embeddings = await model.encode(['A man is eating food.', 'A man is riding a horse.']); // [2, 384]
 * model.similarity(embeddings, embeddings).print(); // [2, 2], by the folder's similarity_fn_name
 */
export class SentenceEncoder {
  /** The Transformer module: an `Encoder`, or a `DecoderModel` for decoder embedding models ({@link isDecoderModel}). */
  readonly encoder: SentenceTransformerModel;
  readonly tokenizer: Tokenizer;
  readonly folder: SentenceFolder;
  readonly pooling: Pooling | undefined;
  readonly dense: readonly Dense[];
  /** Longest input in tokens, special tokens included; longer texts are truncated. */
  readonly maxSeqLength: number;
  #disposed = false;

  constructor(encoder: SentenceTransformerModel, tokenizer: Tokenizer, folder: SentenceFolder, dense: readonly Dense[] = []) {
    for (const [argument, value, kind] of [['encoder', encoder, 'an Encoder (loadEncoder) or a DecoderModel (loadDecoder)'], ['tokenizer', tokenizer, 'a Tokenizer (loadTokenizer)'], ['folder', folder, 'a SentenceFolder (readSentenceFolder)']] as const) checkObject(value, { caller: 'SentenceEncoder', argument, expected: kind });
    if (typeof encoder.forward !== 'function' || typeof (encoder as { config?: { hiddenSize?: unknown } }).config?.hiddenSize !== 'number') {
      throw new InvalidArgumentError({
        caller: 'SentenceEncoder',
        argument: 'encoder',
        expected: 'an Encoder (loadEncoder) or a DecoderModel (loadDecoder)',
        received: describeValue(encoder),
      });
    }
    checkEncoderParts('SentenceEncoder', tokenizer, folder, 'a SentenceFolder (readSentenceFolder)', true);
    if (!Array.isArray(dense)) throw new InvalidArgumentError({ caller: 'SentenceEncoder', argument: 'dense', expected: 'a list of Dense modules', received: describeValue(dense) });
    Array.from(dense).forEach((d: unknown, i) => {
      if (!(d instanceof Dense)) throw new InvalidArgumentError({ caller: 'SentenceEncoder', argument: `dense[${i}]`, expected: 'a Dense module', received: describeValue(d) });
    });
    this.encoder = encoder;
    this.tokenizer = tokenizer;
    this.folder = folder;
    this.dense = dense;
    const pooling = folder.pooling ?? (folder.plain ? { embeddingDimension: encoder.config.hiddenSize, modes: ['mean' as const], includePrompt: true } : undefined);
    this.pooling = pooling === undefined ? undefined : new Pooling(pooling);
    if (pooling !== undefined && pooling.embeddingDimension !== encoder.config.hiddenSize) {
      throw new InvalidArgumentError({
        caller: 'SentenceEncoder',
        argument: 'pooling',
        expected: `embedding_dimension = the encoder's hidden size ${encoder.config.hiddenSize}`,
        received: String(pooling.embeddingDimension),
      });
    }
    this.maxSeqLength = folder.maxSeqLength ?? Math.min(tokenizer.modelMaxLength, encoder.config.maxPositionEmbeddings);
    let width = this.pooling?.outputDimension ?? encoder.config.hiddenSize;
    dense.forEach((d, i) => {
      if (d.config.inFeatures !== width) {
        throw new InvalidArgumentError({
          caller: 'SentenceEncoder',
          argument: `dense[${i}]`,
          expected: `in_features = ${width} (the width before it)`,
          received: String(d.config.inFeatures),
        });
      }
      width = d.config.outFeatures;
    });
    const denseModules = folder.modules.filter((m) => m.type === 'Dense').length;
    if (denseModules !== dense.length) {
      throw new InvalidArgumentError({
        caller: 'SentenceEncoder',
        argument: 'dense',
        expected: `${denseModules} Dense modules, one per Dense in the folder`,
        received: `${dense.length}`,
      });
    }
  }

  /** Width of the sentence embeddings (after pooling and Dense modules, before `truncateDim`). */
  get embeddingDimension(): number {
    const dense = this.dense.at(-1);
    return dense !== undefined ? dense.config.outFeatures : (this.pooling?.outputDimension ?? this.encoder.config.hiddenSize);
  }

  /** `'cosine'`, `'dot'`, `'euclidean'` or `'manhattan'`: the folder's `similarity_fn_name`. */
  get similarityFnName(): SimilarityFunction {
    return this.folder.similarityFnName;
  }

  /**
   * Every row of `a [N, E]` against every row of `b [M, E]` by the folder's similarity function →
   * `[N, M]`, a `Tensor2D` the caller disposes (so `await scores.array()` is a `number[][]`).
   *
   * @example
   * const scores = model.similarity(queries, passages); // [N, M]
   * const [[best]] = await scores.array();
   * scores.dispose();
   */
  similarity(a: Tensor, b: Tensor): Tensor2D {
    return similarity(a, b, this.folder.similarityFnName);
  }

  /**
   * Embeds `texts` as `SentenceTransformer.encode` does: the prompt prepended (and its tokens left
   * out of pooling when the Pooling says `include_prompt: false`), sorted by length and run
   * `batchSize` at a time, truncated to `maxSeqLength`, then pooling, Dense, Normalize,
   * `truncateDim`, `normalize` and `precision`, in that order. `N` texts → `[N, E]` (a tensor to
   * dispose), `QuantizedEmbeddings` for a quantized precision, or `N` tensors `[length, E]` for
   * `outputValue: 'token_embeddings'`.
   *
   * Every batch runs on the backend that was active when `encode` was called, however other calls
   * switch the global backend meanwhile, so concurrent calls (on one model or several, on one
   * backend or several) each give what they give alone. `dispose()` while a call is pending makes
   * it reject with `UseAfterDisposeError` before its next batch; `signal` aborts it between batches.
   */
  encode(texts: readonly string[], options?: SentenceEncodeFloatOptions): Promise<Tensor2D>;
  encode(texts: readonly string[], options: SentenceEncodeQuantizedOptions): Promise<QuantizedEmbeddings>;
  encode(texts: readonly string[], options: SentenceEncodeTokenOptions): Promise<Tensor2D[]>;
  async encode(given: readonly string[], givenOptions: SentenceEncodeOptions = {}): Promise<Tensor2D | QuantizedEmbeddings | Tensor2D[]> {
    const caller = 'SentenceEncoder.encode';
    if (this.#disposed) throw new UseAfterDisposeError(caller);
    const backend = callBackend(caller); // every batch runs here, whatever the global backend is by then
    const options = encodeOptionsWithoutNulls(givenOptions, caller); // a null option reads as absent, as None in sentence-transformers
    const { normalize, batchSize, precision, outputValue, truncateDim } = checkEncodeOptions(options, { caller, hasPooling: this.pooling !== undefined, truncateDim: this.folder.truncateDim });
    const texts = checkTexts(given, caller); // one read of each text: a hole is undefined (refused), and nothing changes after the check
    const prompt = this.#prompt(options, caller);
    const promptLength = prompt === undefined || prompt === '' ? 0 : this.#promptLength(prompt);
    const width = Math.min(truncateDim ?? Infinity, this.embeddingDimension);
    if (options.ranges !== undefined) checkRanges(options.ranges, precision, width, caller);

    // longest first by tokens (sentence-transformers sorts by characters, which pads more: 34 % more tokens on a
    // corpus of WordNet glosses), stable; results go back to input order
    const lengths = texts.length <= batchSize ? undefined : texts.map((text) => Math.min(this.tokenizer.tokenize((prompt ?? '') + text).length, this.maxSeqLength)); // the special tokens are as many for every text
    const order = texts.map((_, i) => i).sort((a, b) => (lengths === undefined ? 0 : lengths[b]! - lengths[a]!) || (texts[b] as string).length - (texts[a] as string).length || a - b);
    const pieces: Tensor[] = [];
    const tokenPieces: Tensor2D[] = [];
    try {
      for (let start = 0; start < order.length; start += batchSize) {
        options.signal?.throwIfAborted();
        await backend.settled();
        if (this.#disposed) throw new UseAfterDisposeError(caller); // disposed while this call was pending
        const rows = order.slice(start, start + batchSize);
        const batch = this.tokenizer.encode(rows.map((r) => (prompt ?? '') + (texts[r] as string)), { maxLength: this.maxSeqLength, truncation: true, padding: 'longest' });
        backend.run(() => {
          const out = this.#forward(batch);
          try {
            if (outputValue === 'token_embeddings') {
              batch.attentionMask.forEach((mask, b) => {
                const length = mask.lastIndexOf(1) + 1 || 1; // up to the last counted token (at least one, as sentence-transformers)
                tokenPieces.push(tidy(() => reshape(slice(out.lastHiddenState, [b, 0, 0], [1, length, -1]), [length, -1]) as Tensor2D)); // [1, length, E] -> [length, E]
              });
            } else {
              pieces.push(tidy(() => {
                const sentences = this.sentenceEmbeddings(out.lastHiddenState, tensor2d(batch.attentionMask, undefined, 'int32'), promptLength); // [b, E]
                const kept = width < (sentences.shape[1] as number) ? slice(sentences, [0, 0], [-1, width]) : sentences; // Matryoshka: the first truncateDim dimensions
                return normalize ? l2Normalize(kept) : kept;
              }));
            }
          } finally {
            out.lastHiddenState.dispose();
          }
        });
        options.onProgress?.(Math.min(start + batchSize, order.length), order.length);
        if (start + batchSize < order.length) await new Promise((resolve) => setTimeout(resolve, 0));
      }
    } catch (error) {
      [...pieces, ...tokenPieces].forEach((t) => t.dispose());
      throw error;
    }
    if (outputValue === 'token_embeddings') {
      const back = new Array<Tensor2D>(order.length);
      order.forEach((row, position) => (back[row] = tokenPieces[position] as Tensor2D));
      return back;
    }
    const embeddings = backend.run(() => tidy(() => {
      if (pieces.length === 0) return zeros([0, width]) as Tensor2D;
      const back = new Int32Array(order.length);
      order.forEach((row, position) => (back[row] = position));
      return gather(concat(pieces, 0), tensor1d(back, 'int32')) as Tensor2D; // [N, E] in input order
    }));
    pieces.forEach((t) => t.dispose());
    if (precision === 'float32') return embeddings;
    try {
      return await quantizeEmbeddings(embeddings, precision, options.ranges === undefined ? {} : { ranges: options.ranges });
    } finally {
      embeddings.dispose();
    }
  }

  /** Frees the encoder's and the Dense modules' weights; later calls throw. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.encoder.dispose();
    this.dense.forEach((d) => d.dispose());
  }

  /**
   * The folder's modules after the encoder — pooling, then Dense and Normalize in order — on an
   * encoder output: `lastHiddenState [B, T, E]`, `attentionMask [B, T]` (0/1) → `[B, embeddingDimension]`
   * (a `Tensor2D`).
   * `promptLength`: tokens of a prompt that start every row (left out when the pooling says so).
   *
   * @example
   * const { lastHiddenState } = model.encoder.forward(batch);
   * const sentences = model.sentenceEmbeddings(lastHiddenState, tf.tensor2d(batch.attentionMask, undefined, 'int32'));
   */
  sentenceEmbeddings(lastHiddenState: Tensor, attentionMask: Tensor, promptLength = 0): Tensor2D {
    const pooling = this.pooling;
    if (pooling === undefined) {
      throw new InvalidArgumentError({
        caller: 'SentenceEncoder.sentenceEmbeddings',
        argument: 'this',
        expected: 'a folder with a Pooling module',
        received: 'a folder without one (token embeddings only)',
      });
    }
    return tidy(() => {
      let x: Tensor = pooling.forward(lastHiddenState, attentionMask, promptLength); // [B, modes · E]
      let dense = 0;
      for (const module of this.folder.modules) x = module.type === 'Dense' ? (this.dense[dense++] as Dense).forward(x) : l2Normalize(x);
      return x as Tensor2D; // [B, E]: Dense maps [B, in] to [B, out], Normalize keeps the shape
    });
  }

  /**
   * The Transformer module on a tokenized batch → `lastHiddenState [B, T, E]`. A decoder gets the
   * positions transformers' `forward` gives when none are passed (as sentence-transformers passes
   * none): 0 … T-1 in every row, padding included — with left padding a row's positions start past
   * its padding, which rotary attention does not see (it depends on distances only).
   */
  #forward(batch: { readonly inputIds: number[][]; readonly attentionMask: number[][]; readonly tokenTypeIds: number[][] }): { readonly lastHiddenState: Tensor } {
    const encoder = this.encoder;
    if (!isDecoderModel(encoder)) {
      const out = encoder.forward({ inputIds: batch.inputIds, attentionMask: batch.attentionMask, tokenTypeIds: batch.tokenTypeIds });
      out.poolerOutput?.dispose();
      return out;
    }
    const positions = Array.from({ length: batch.inputIds[0]?.length ?? 0 }, (_, t) => t); // [T]: 0 … T-1
    const out = encoder.forward({ inputIds: batch.inputIds, attentionMask: batch.attentionMask, positionIds: batch.inputIds.map(() => positions) }, 'SentenceEncoder.encode');
    return { lastHiddenState: out.lastHiddenState };
  }

  /** The prompt an encode call uses: `prompt`, else `promptName`'s, else the folder's default. */
  #prompt(options: SentenceEncodeOptions, caller: string): string | undefined {
    if (options.prompt !== undefined) {
      if (typeof options.prompt !== 'string') throw new InvalidArgumentError({ caller, argument: 'prompt', expected: 'a string', received: describeValue(options.prompt) });
      return options.prompt;
    }
    const name = options.promptName ?? this.folder.defaultPromptName;
    if (name === undefined) return undefined;
    const text = this.folder.prompts.get(name);
    if (text === undefined) {
      throw new InvalidArgumentError({
        caller,
        argument: 'promptName',
        expected: `one of the folder's prompts (${[...this.folder.prompts.keys()].map((p) => `'${p}'`).join(', ') || 'it has none'})`,
        received: describeValue(name),
      });
    }
    return text;
  }

  /** Tokens of the prompt as pooling counts them: with the leading special token, without a trailing one (sentence-transformers' rule). */
  #promptLength(prompt: string): number {
    const ids = this.tokenizer.encode([prompt], { maxLength: this.maxSeqLength }).inputIds[0] as number[];
    const last = this.tokenizer.idToToken(ids.at(-1) as number);
    return ids.length - (last !== undefined && this.tokenizer.isSpecialToken(last) ? 1 : 0);
  }
}
