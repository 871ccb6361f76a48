import { concat, gather, reshape, slice, tensor1d, tensor2d, tidy, zeros, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { checkBoolean, checkInteger, checkObject, checkOptionKeys, describeValue, InvalidArgumentError, isTensorLike, UseAfterDisposeError } from '@attnkit/errors';
import { callBackend, ensureBackend } from '@attnkit/backends';
import { checkModelSource, describeSource, loadEncoder, loadTokenizer, modelFiles, ModelLoadError, nonFiniteTensors, subfolderSource, type Encoder, type LoadProgress, type ModelSource, type Tokenizer } from '@attnkit/bert';
import { readSafetensors } from '@attnkit/nn';
import { l2Normalize } from './l2-normalize.js';
import { Dense } from './modules/dense.js';
import { Pooling } from './modules/pooling.js';
import { PRECISIONS, quantizeEmbeddings, type Precision, type QuantizationRanges, type QuantizedEmbeddings } from './quantize-embeddings.js';
import { readSentenceFolder, type SentenceFolder } from './read-sentence-folder.js';
import { similarity, type SimilarityFunction } from './similarity.js';

/** Options of {@link SentenceEncoder.encode}, named like `SentenceTransformer.encode`'s. */
export interface SentenceEncodeOptions {
  /** Texts per forward pass (default 32). Texts are sorted by length first; results come back in input order. */
  readonly batchSize?: number;
  /** A prompt of the folder's `prompts` to prepend (`'query'`, `'passage'`, ...). */
  readonly promptName?: string;
  /** A prompt text to prepend; wins over `promptName`. Without either, the folder's `default_prompt_name` applies. */
  readonly prompt?: string;
  /** Scale each embedding to unit length, after `truncateDim`. Default false. */
  readonly normalize?: boolean;
  /** Keep the first `truncateDim` dimensions (Matryoshka models). Default: the folder's, else all. */
  readonly truncateDim?: number;
  /** `'float32'` (default) or a quantized precision (`'int8'`, `'uint8'`, `'binary'`, `'ubinary'`), as sentence-transformers quantizes. */
  readonly precision?: Precision;
  /** For `int8` / `uint8`: per-dimension calibration ranges (default: computed from these embeddings, as sentence-transformers does). */
  readonly ranges?: QuantizationRanges;
  /** `'sentence_embedding'` (default) or `'token_embeddings'`: each text's `[length, E]` token vectors, padding removed. */
  readonly outputValue?: 'sentence_embedding' | 'token_embeddings';
  /** Called after each batch with the texts done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Stops between batches: the call rejects with the signal's reason (an `AbortError`), leaving no tensor behind. */
  readonly signal?: AbortSignal;
}

/** Options of {@link loadSentenceEncoder}. */
export interface LoadSentenceEncoderOptions {
  /** Told how far each file of the folder (JSON files, tokenizer, weights) has been read. */
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Told about defaults applied (a plain folder read with mean pooling) and tensors skipped on purpose. */
  readonly onNotice?: (message: string) => void;
  /** Stops the load: it rejects with the signal's reason (an `AbortError`), leaving no tensor behind. */
  readonly signal?: AbortSignal;
  /** The (initialised) backend the weights are made on. Default: the backend active when the call is made. */
  readonly backend?: string;
  /** Refuse weights (encoder and Dense modules) holding NaN or ±Infinity; off by default. */
  readonly checkFinite?: boolean;
  /** Fetches URL sources instead of the global `fetch` (same signature): `cachedFetch()` of `@attnkit/bert` keeps the files in the browser's Cache API. */
  readonly fetch?: typeof fetch;
  /**
   * `'int8'`: an int8 inference model — the encoder is loaded with `loadEncoder`'s
   * `quantize: 'int8'` (every Linear of the encoder, pooler included, becomes an `Int8Linear`). The
   * Dense modules stay float32: they run once per sentence, not per token, so there is no time to
   * save, and their error would go straight into the embedding. Inference only (training refuses
   * it). Default: float32. An int8 folder (`saveInt8Folder` of `@attnkit/train`: the encoder's
   * Linear weights stored int8, a quarter of their float32 bytes) loads as an int8 model with or
   * without this option, its Int8Linear layers built from the stored int8 values (see
   * `loadEncoder`).
   */
  readonly quantize?: 'int8';
}

const ENCODE_OPTION_KEYS = ['batchSize', 'promptName', 'prompt', 'normalize', 'truncateDim', 'precision', 'ranges', 'outputValue', 'onProgress', 'signal'] as const;
const LOAD_OPTION_KEYS = ['onProgress', 'onNotice', 'signal', 'backend', 'checkFinite', 'fetch', 'quantize'] as const;

/** A callback option is a function or absent: a number or object there would fail only when first called. */
function checkCallback(value: unknown, caller: string, argument: string): void {
  if (value !== undefined && typeof value !== 'function') throw new InvalidArgumentError({ caller, argument, expected: 'a function', received: describeValue(value) });
}

/** An abort signal option is an `AbortSignal` (anything with `aborted` and `throwIfAborted()`) or absent. */
function checkSignal(value: unknown, caller: string): void {
  if (value === undefined) return;
  const signal = value as { throwIfAborted?: unknown; aborted?: unknown } | null;
  if (typeof signal !== 'object' || signal === null || typeof signal.throwIfAborted !== 'function' || typeof signal.aborted !== 'boolean') {
    throw new InvalidArgumentError({ caller, argument: 'signal', expected: 'an AbortSignal (from new AbortController().signal)', received: describeValue(value) });
  }
}

/** `ranges` as quantizeEmbeddings reads them: `{ min, max }`, each a list of `width` finite numbers. */
function checkRanges(ranges: unknown, width: number, caller: string): void {
  const expected = `quantization ranges { min, max }: two lists of E = ${width} numbers (from quantizationRanges())`;
  if (typeof ranges !== 'object' || ranges === null || isTensorLike(ranges)) throw new InvalidArgumentError({ caller, argument: 'ranges', expected, received: describeValue(ranges) });
  for (const side of ['min', 'max'] as const) {
    const list = (ranges as Record<string, unknown>)[side];
    const listLike = Array.isArray(list) || ArrayBuffer.isView(list);
    if (!listLike || (list as ArrayLike<unknown>).length !== width || !Array.from(list as ArrayLike<unknown>).every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new InvalidArgumentError({ caller, argument: `ranges.${side}`, expected, received: describeValue(list) });
    }
  }
}

/** {@link SentenceEncoder.encode} options that give float32 embeddings `[N, E]`. */
export type SentenceEncodeFloatOptions = SentenceEncodeOptions & { readonly precision?: 'float32'; readonly outputValue?: 'sentence_embedding' };
/** {@link SentenceEncoder.encode} options that give quantized embeddings (int8, uint8, binary, ubinary). */
export type SentenceEncodeQuantizedOptions = SentenceEncodeOptions & { readonly precision: Exclude<Precision, 'float32'>; readonly outputValue?: 'sentence_embedding' };
/** {@link SentenceEncoder.encode} options that give each text's token embeddings `[T, E]`. */
export type SentenceEncodeTokenOptions = SentenceEncodeOptions & { readonly outputValue: 'token_embeddings' };

/**
 * A sentence embedding model as its folder says: the encoder of the folder's `model_type`, its
 * tokenizer (with `do_lower_case` and `max_seq_length` applied), pooling, Dense and Normalize
 * modules, prompts and similarity function — equal to `SentenceTransformer(folder).encode`.
 *
 * @example
 * const model = await loadSentenceEncoder('./all-MiniLM-L6-v2');
 * const embeddings = await model.encode(['A man is eating food.', 'A man is riding a horse.']); // [2, 384]
 * model.similarity(embeddings, embeddings).print(); // [2, 2], by the folder's similarity_fn_name
 */
export class SentenceEncoder {
  readonly encoder: Encoder;
  readonly tokenizer: Tokenizer;
  readonly folder: SentenceFolder;
  readonly pooling: Pooling | undefined;
  readonly dense: readonly Dense[];
  /** Longest input in tokens, special tokens included; longer texts are truncated. */
  readonly maxSeqLength: number;
  #disposed = false;

  constructor(encoder: Encoder, tokenizer: Tokenizer, folder: SentenceFolder, dense: readonly Dense[] = []) {
    for (const [argument, value, kind] of [['encoder', encoder, 'an Encoder (loadEncoder)'], ['tokenizer', tokenizer, 'a Tokenizer (loadTokenizer)'], ['folder', folder, 'a SentenceFolder (readSentenceFolder)']] as const) checkObject(value, { caller: 'SentenceEncoder', argument, expected: kind });
    if (typeof encoder.forward !== 'function' || typeof (encoder as { config?: { hiddenSize?: unknown } }).config?.hiddenSize !== 'number') throw new InvalidArgumentError({ caller: 'SentenceEncoder', argument: 'encoder', expected: 'an Encoder (loadEncoder)', received: describeValue(encoder) });
    if (!Array.isArray(dense)) throw new InvalidArgumentError({ caller: 'SentenceEncoder', argument: 'dense', expected: 'a list of Dense modules', received: describeValue(dense) });
    this.encoder = encoder;
    this.tokenizer = tokenizer;
    this.folder = folder;
    this.dense = dense;
    const pooling = folder.pooling ?? (folder.plain ? { embeddingDimension: encoder.config.hiddenSize, modes: ['mean' as const], includePrompt: true } : undefined);
    this.pooling = pooling === undefined ? undefined : new Pooling(pooling);
    if (pooling !== undefined && pooling.embeddingDimension !== encoder.config.hiddenSize) {
      throw new InvalidArgumentError({ caller: 'SentenceEncoder', argument: 'pooling', expected: `embedding_dimension = the encoder's hidden size ${encoder.config.hiddenSize}`, received: String(pooling.embeddingDimension) });
    }
    this.maxSeqLength = folder.maxSeqLength ?? Math.min(tokenizer.modelMaxLength, encoder.config.maxPositionEmbeddings);
    let width = this.pooling?.outputDimension ?? encoder.config.hiddenSize;
    dense.forEach((d, i) => {
      if (d.config.inFeatures !== width) throw new InvalidArgumentError({ caller: 'SentenceEncoder', argument: `dense[${i}]`, expected: `in_features = ${width} (the width before it)`, received: String(d.config.inFeatures) });
      width = d.config.outFeatures;
    });
    const denseModules = folder.modules.filter((m) => m.type === 'Dense').length;
    if (denseModules !== dense.length) throw new InvalidArgumentError({ caller: 'SentenceEncoder', argument: 'dense', expected: `${denseModules} Dense modules, one per Dense in the folder`, received: `${dense.length}` });
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

  /** Every row of `a [N, E]` against every row of `b [M, E]` by the folder's similarity function → `[N, M]`. */
  similarity(a: Tensor, b: Tensor): Tensor {
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
  async encode(given: readonly string[], options: SentenceEncodeOptions = {}): Promise<Tensor2D | QuantizedEmbeddings | Tensor2D[]> {
    const caller = 'SentenceEncoder.encode';
    if (this.#disposed) throw new UseAfterDisposeError(caller);
    const backend = callBackend(caller); // every batch runs here, whatever the global backend is by then
    checkOptionKeys(options, ENCODE_OPTION_KEYS, caller);
    const normalize = checkBoolean(options.normalize, { caller, argument: 'normalize', fallback: false });
    checkCallback(options.onProgress, caller, 'onProgress');
    checkSignal(options.signal, caller);
    if (!Array.isArray(given)) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a list of strings', received: describeValue(given) });
    const texts: readonly unknown[] = Array.from(given); // one read of each text: a hole is undefined (refused), and nothing changes after the check
    for (let i = 0; i < texts.length; i++) {
      if (typeof texts[i] !== 'string') throw new InvalidArgumentError({ caller, argument: `texts[${i}]`, expected: 'a string', received: describeValue(texts[i]) });
    }
    const batchSize = checkInteger(options.batchSize ?? 32, { caller, argument: 'batchSize', min: 1 });
    const precision = options.precision ?? 'float32';
    if (!(PRECISIONS as readonly unknown[]).includes(precision)) throw new InvalidArgumentError({ caller, argument: 'precision', expected: PRECISIONS.map((p) => `'${p}'`).join(', '), received: describeValue(precision) });
    const outputValue = options.outputValue ?? 'sentence_embedding';
    if (outputValue !== 'sentence_embedding' && outputValue !== 'token_embeddings') throw new InvalidArgumentError({ caller, argument: 'outputValue', expected: "'sentence_embedding' or 'token_embeddings'", received: describeValue(outputValue) });
    if (outputValue === 'token_embeddings' && precision !== 'float32') throw new InvalidArgumentError({ caller, argument: 'precision', expected: "'float32' with outputValue 'token_embeddings'", received: describeValue(precision) });
    if (outputValue === 'sentence_embedding' && this.pooling === undefined) throw new InvalidArgumentError({ caller, argument: 'outputValue', expected: "'token_embeddings': this folder has no Pooling module", received: "'sentence_embedding'" });
    const truncateDim = options.truncateDim ?? this.folder.truncateDim;
    if (truncateDim !== undefined) checkInteger(truncateDim, { caller, argument: 'truncateDim', min: 1 });
    const prompt = this.#prompt(options, caller);
    const promptLength = prompt === undefined || prompt === '' ? 0 : this.#promptLength(prompt);
    const width = Math.min(truncateDim ?? Infinity, this.embeddingDimension);
    if (options.ranges !== undefined) {
      if (precision === 'float32') throw new InvalidArgumentError({ caller, argument: 'ranges', expected: "absent with precision 'float32' (ranges calibrate 'int8' / 'uint8')", received: describeValue(options.ranges) });
      checkRanges(options.ranges, width, caller);
    }

    // longest first (by characters, as sentence-transformers sorts), stable; results go back to input order
    const order = texts.map((_, i) => i).sort((a, b) => (texts[b] as string).length - (texts[a] as string).length || a - b);
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
          const out = this.encoder.forward({ inputIds: batch.inputIds, attentionMask: batch.attentionMask, tokenTypeIds: batch.tokenTypeIds });
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
            out.poolerOutput?.dispose();
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
   * encoder output: `lastHiddenState [B, T, E]`, `attentionMask [B, T]` (0/1) → `[B, embeddingDimension]`.
   * `promptLength`: tokens of a prompt that start every row (left out when the pooling says so).
   *
   * @example
   * const { lastHiddenState } = model.encoder.forward(batch);
   * const sentences = model.sentenceEmbeddings(lastHiddenState, tf.tensor2d(batch.attentionMask, undefined, 'int32'));
   */
  sentenceEmbeddings(lastHiddenState: Tensor, attentionMask: Tensor, promptLength = 0): Tensor {
    const pooling = this.pooling;
    if (pooling === undefined) throw new InvalidArgumentError({ caller: 'SentenceEncoder.sentenceEmbeddings', argument: 'this', expected: 'a folder with a Pooling module', received: 'a folder without one (token embeddings only)' });
    return tidy(() => {
      let x = pooling.forward(lastHiddenState, attentionMask, promptLength); // [B, modes · E]
      let dense = 0;
      for (const module of this.folder.modules) x = module.type === 'Dense' ? (this.dense[dense++] as Dense).forward(x) : l2Normalize(x);
      return x;
    });
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
    if (text === undefined) throw new InvalidArgumentError({ caller, argument: 'promptName', expected: `one of the folder's prompts (${[...this.folder.prompts.keys()].map((p) => `'${p}'`).join(', ') || 'it has none'})`, received: describeValue(name) });
    return text;
  }

  /** Tokens of the prompt as pooling counts them: with the leading special token, without a trailing one (sentence-transformers' rule). */
  #promptLength(prompt: string): number {
    const ids = this.tokenizer.encode([prompt], { maxLength: this.maxSeqLength }).inputIds[0] as number[];
    const last = this.tokenizer.idToToken(ids.at(-1) as number);
    return ids.length - (last !== undefined && this.tokenizer.isSpecialToken(last) ? 1 : 0);
  }
}

/**
 * Loads a sentence-transformers folder (or a plain Hugging Face folder, with mean pooling) from a
 * local folder (Node), a URL or a set of files: the encoder of its `model_type`, its tokenizer,
 * and its modules as `modules.json` lists them. Any file the folder refers to stays inside it.
 * `options.fetch` fetches URL sources instead of the global `fetch`: `cachedFetch()` of
 * `@attnkit/bert` downloads a model once per browser. `options.quantize: 'int8'` loads an int8
 * inference encoder (Dense modules stay float32; see {@link LoadSentenceEncoderOptions.quantize}).
 *
 * @example
 * const model = await loadSentenceEncoder('./bge-small-en-v1.5');
 * const embeddings = await model.encode(['query text'], { normalize: true }); // [1, 384]
 * const int8 = await loadSentenceEncoder('./bge-small-en-v1.5', { quantize: 'int8' }); // int8 matrix products, inference only
 */
export async function loadSentenceEncoder(source: ModelSource, options: LoadSentenceEncoderOptions = {}): Promise<SentenceEncoder> {
  checkModelSource(source, 'loadSentenceEncoder');
  checkObject(options, { caller: 'loadSentenceEncoder', argument: 'options', expected: 'an object of load options' });
  checkOptionKeys(options, LOAD_OPTION_KEYS, 'loadSentenceEncoder');
  checkCallback(options.onProgress, 'loadSentenceEncoder', 'onProgress');
  checkCallback(options.onNotice, 'loadSentenceEncoder', 'onNotice');
  checkSignal(options.signal, 'loadSentenceEncoder');
  checkCallback(options.fetch, 'loadSentenceEncoder', 'fetch');
  checkBoolean(options.checkFinite, { caller: 'loadSentenceEncoder', argument: 'checkFinite', fallback: false });
  if (options.quantize !== undefined && options.quantize !== 'int8') throw new InvalidArgumentError({ caller: 'loadSentenceEncoder', argument: 'quantize', expected: "'int8' (or absent for float32 weights)", received: describeValue(options.quantize) }); // before any file is read
  if (options.backend === undefined) await ensureBackend('loadSentenceEncoder'); // Node, nothing chosen: wasm, not tfjs' slow pure-JS cpu
  const backend = callBackend('loadSentenceEncoder', options.backend); // the weights are made here, whatever happens meanwhile
  const reading = { ...(options.signal === undefined ? {} : { signal: options.signal }), ...(options.fetch === undefined ? {} : { fetch: options.fetch }), ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }) }; // how every file is read
  const folder = await readSentenceFolder(source, reading);
  const transformer = subfolderSource(source, folder.transformerPath);
  if (folder.plain) options.onNotice?.(`loadSentenceEncoder: ${describeSource(source)} has no modules.json (not a sentence-transformers folder); embedding with mean pooling, as sentence-transformers does for such a folder.`);
  const encoder = await loadEncoder(transformer, { backend: backend.name, ...reading, ...(options.checkFinite === undefined ? {} : { checkFinite: options.checkFinite }), ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }), ...(options.quantize === undefined ? {} : { quantize: options.quantize }) });
  const dense: Dense[] = [];
  try {
    const tokenizer = await loadTokenizer(transformer, { lowercase: folder.doLowerCase, ...reading });
    for (const module of folder.modules) {
      if (module.type !== 'Dense') continue;
      const inside = subfolderSource(source, module.path);
      const bytes = await modelFiles(inside, { caller: 'loadSentenceEncoder', ...reading })('model.safetensors');
      if (bytes === undefined) throw new ModelLoadError(`${module.path}/model.safetensors`, `${module.path}/model.safetensors is missing in ${describeSource(source)} (the Dense module's weights; pytorch_model.bin is not read).`, undefined, 'loadSentenceEncoder');
      const file = `${module.path}/model.safetensors`;
      let weights: ReturnType<typeof readSafetensors>['tensors'] | undefined;
      try {
        weights = readSafetensors(bytes).tensors;
      } catch (error) {
        throw new ModelLoadError(file, `${file} in ${describeSource(source)}: ${(error as Error).message}`, error, 'loadSentenceEncoder');
      }
      const int8 = [...weights].filter(([, t]) => t.dtype === 'I8').map(([name]) => name);
      if (int8.length > 0) throw new ModelLoadError(file, `${file} in ${describeSource(source)} holds int8 (I8) tensors (${int8.slice(0, 2).join(', ')}); Dense modules are read as float32 (F32, F16 or BF16) — an int8 folder quantizes the encoder only.`, undefined, 'loadSentenceEncoder');
      const bad = options.checkFinite === true ? nonFiniteTensors(weights) : [];
      if (bad.length > 0) throw new ModelLoadError(file, `${file} in ${describeSource(source)} has non-finite weights (checkFinite): ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? `; and ${bad.length - 3} more tensors` : ''}.`, undefined, 'loadSentenceEncoder');
      await backend.settled();
      try {
        const checked = weights;
        dense.push(backend.run(() => new Dense(module.config, checked)));
      } catch (error) {
        throw new ModelLoadError(file, `${file} in ${describeSource(source)} does not match its config.json: ${(error as Error).message}`, error, 'loadSentenceEncoder');
      }
    }
    options.signal?.throwIfAborted();
    return new SentenceEncoder(encoder, tokenizer, folder, dense);
  } catch (error) {
    encoder.dispose();
    dense.forEach((d) => d.dispose());
    throw error;
  }
}
