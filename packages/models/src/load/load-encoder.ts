import { checkBoolean, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { kernelThreadsReady } from '@attnkit/kernels';
import type { HubOptions, LoadProgress, ModelFiles, ModelLoadError, ModelSource } from '@attnkit/hub';
import type { Module, StateDictSource } from '@attnkit/nn';
import { BertModel } from '../bert/bert-model.js';
import { DistilBertModel } from '../distilbert/distilbert-model.js';
import { ElectraModel } from '../electra/electra-model.js';
import type { Encoder } from '../encoder/encoder.js';
import type { EncoderConfig, ModelType } from '../encoder/encoder-config.js';
import { parseEncoderConfig } from '../encoder/parse-encoder-config.js';
import type { ModernBertConfig } from '../modernbert/modernbert-config.js';
import { ModernBertModel } from '../modernbert/modernbert-model.js';
import { MPNetModel } from '../mpnet/mpnet-model.js';
import { RobertaModel } from '../roberta/roberta-model.js';
import { RoFormerModel } from '../roformer/roformer-model.js';
import { applyInt8 } from './apply-int8.js';
import { buildOnBackend } from './build-on-backend.js';
import { encoderStateDict, type EncoderStateDict } from './encoder-state-dict.js';
import { openModelFolder } from './open-model-folder.js';
import { readEncoderFolder } from './read-encoder-folder.js';
import { checkModelTypes } from './read-model-folder.js';

/** Options of {@link loadEncoder}. */
export interface LoadEncoderOptions {
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Told about tensors that are skipped on purpose (pre-training heads such as `cls.*`, `lm_head.*`). */
  readonly onNotice?: (message: string) => void;
  /** Stops the load: it rejects with the signal's reason (an `AbortError`), leaving no tensor behind. */
  readonly signal?: AbortSignal;
  /** Refuse weights holding NaN or ±Infinity (a `ModelLoadError` naming the tensors); off by default, it reads every value once. */
  readonly checkFinite?: boolean;
  /**
   * The (initialised) backend the weights are made on. Default: the backend active when the call
   * is made, kept however the global backend changes while the files are read.
   */
  readonly backend?: string;
  /** Fetches URL sources instead of the global `fetch` (same signature), e.g. `cachedFetch()` to keep the files in the browser's Cache API. */
  readonly fetch?: typeof fetch;
  /** For a model named by Hugging Face id (`'org/name'`): the cache folder, offline mode, token and endpoint (defaults: the `HF_*` variables, as Python's). */
  readonly hub?: HubOptions;
  /**
   * `'int8'`: an int8 inference model. Once built, every `Linear` of the model — the encoder's
   * projections and feed-forward layers, and its pooler — becomes an `Int8Linear`
   * (`quantizeLinearLayers` of `@attnkit/nn`): weights int8 per output channel, each row of
   * activations quantized on the fly, int32 sums, float32 scales and bias. Embeddings, LayerNorm,
   * softmax and attention stay float32, and the parameter keys are unchanged but for the int8
   * weights, which are no parameters. Inference only: a forward pass in train mode or under a gradient tape throws, and the trainers and savers of `@attnkit/train` refuse it. The int8 products run
   * on the CPU (wasm SIMD) whatever the backend: meant for the `wasm` and `cpu` backends (on webgl
   * or webgpu each product reads its input back). Default: float32.
   *
   * An int8 folder (`saveInt8Folder` of `@attnkit/train`: I8 weights with their scales, and a
   * `compressed-tensors` `quantization_config` in config.json) is an int8 model whatever this
   * option says: its `Int8Linear` layers are built from the stored int8 values and scales as they
   * are — bit-identical to `quantize: 'int8'` on the float folder it was made from — and, without
   * this option, `onNotice` is told so.
   */
  readonly quantize?: 'int8';
}

/** A model built from a loaded folder: a `Module` telling which of its parameters the folder did not hold. */
export type LoadedModel = Module & { readonly initialisedKeys: readonly string[] };

/** How a loader turns an encoder folder into its model. */
export interface EncoderFolderLoader<C extends EncoderConfig, M extends LoadedModel> {
  /** The loader named in errors and notices. */
  readonly caller: string;
  /** The family's config parser (`parseEncoderConfig` for any family). */
  readonly parseConfig: (json: unknown) => C;
  /** The `model_type`s it takes (all that `parseConfig` reads when absent). */
  readonly modelTypes?: readonly ModelType[];
  /** Builds the model from the config and the folder's values (on the load's backend); may throw typed errors. */
  readonly build: (config: C, state: EncoderStateDict) => M;
  /** The build uses the folder's head tensors (`cls.*`, ...): no notice that they are skipped. */
  readonly usesHeads?: boolean;
  /** Where the encoder sits in the model (`'bert.'` under a head; default `''`), or how the config says it (`roberta.` for model_type roberta). */
  readonly encoderPath?: string | ((config: C) => string);
  /** With `quantize: 'int8'`, keep the head's `Linear` layers float32 (only the encoder's become `Int8Linear`). Default false. */
  readonly floatHead?: boolean;
}

/** The model class of each `model_type`. */
const ENCODER_CLASSES: Record<ModelType, (config: EncoderConfig, checkpoint: StateDictSource) => Encoder> = {
  bert: (c, w) => new BertModel(c, w),
  roberta: (c, w) => new RobertaModel(c, w),
  'xlm-roberta': (c, w) => new RobertaModel(c, w),
  distilbert: (c, w) => new DistilBertModel(c, w),
  electra: (c, w) => new ElectraModel(c, w),
  mpnet: (c, w) => new MPNetModel(c, w),
  roformer: (c, w) => new RoFormerModel(c, w),
  modernbert: (c, w) => new ModernBertModel(c as ModernBertConfig, w),
};

/**
 * Loads an encoder folder in named steps — the options checked, the folder read and checked
 * (`readEncoderFolder`), its tensors named as the model's parameters (`encoderStateDict`), the
 * model built by `loader.build` on the load's backend, int8 weights applied (`applyInt8`) — for
 * `loadEncoder`, `loadBert` and the loaders of models with heads.
 *
 * @example
 * const model = await loadEncoderFolder('./bert', {}, { caller: 'loadBert', parseConfig: parseBertConfig, build: (c, s) => new BertModel(c, s.checkpoint) });
 */
export async function loadEncoderFolder<C extends EncoderConfig, M extends LoadedModel>(source: ModelSource | ModelFiles, options: LoadEncoderOptions, loader: EncoderFolderLoader<C, M>): Promise<M> {
  const { caller, encoderPath: where = '' } = checkObject(loader, { caller: 'loadEncoderFolder', argument: 'loader', expected: 'an object { caller, parseConfig, build, ... }' });
  if (typeof caller !== 'string' || typeof loader.parseConfig !== 'function' || typeof loader.build !== 'function') throw new InvalidArgumentError({ caller: 'loadEncoderFolder', argument: 'loader', expected: 'an object with a caller name (a string) and parseConfig and build functions', received: describeValue(loader) });
  checkOptionKeys(loader, ['caller', 'parseConfig', 'build', 'modelTypes', 'usesHeads', 'encoderPath', 'floatHead'], 'loadEncoderFolder', 'loader');
  checkModelTypes(loader.modelTypes, 'loadEncoderFolder');
  checkBoolean(loader.usesHeads, { caller: 'loadEncoderFolder', argument: 'loader.usesHeads', fallback: false });
  checkBoolean(loader.floatHead, { caller: 'loadEncoderFolder', argument: 'loader.floatHead', fallback: false });
  if (typeof where !== 'string' && typeof where !== 'function') throw new InvalidArgumentError({ caller: 'loadEncoderFolder', argument: 'loader.encoderPath', expected: "a path ending in '.' ('bert.'), '' or a function of the config giving one", received: describeValue(where) });
  const { files, backend } = await openModelFolder(source, options, caller); // the options checked, the backend this call started on
  const folder = await readEncoderFolder(files, { parseConfig: loader.parseConfig, modelTypes: loader.modelTypes, checkFinite: options.checkFinite === true });
  const encoderPath = typeof where === 'function' ? where(folder.config) : where;
  const state = encoderStateDict(folder, encoderPath);
  if (state.heads.size > 0 && loader.usesHeads !== true) {
    const skipped = [...state.heads.keys()];
    options.onNotice?.(`${caller}: skipped ${skipped.length} tensors of heads the encoder does not have (${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', ...' : ''}); it does not use them.`);
  }
  const model = await buildOnBackend(files, backend, options.signal, () => loader.build(folder.config, state));
  applyInt8(model, { files, backend, int8Layers: state.int8Layers, quantize: options.quantize, encoderPath, onNotice: options.onNotice, floatHead: loader.floatHead === true });
  if (loader.usesHeads !== true && model.initialisedKeys.length > 0) options.onNotice?.(`${caller}: ${files.where} has no pooler (a checkpoint saved without one); ${model.initialisedKeys.join(' and ')} are initialised randomly, as transformers does: poolerOutput is not meaningful until trained.`);
  // the hand-written kernels' workers (int8 products, fused attention on wasm) up before the first forward: a browser starts them a task later otherwise
  if (backend.name === 'wasm' || state.int8Layers.size > 0 || options.quantize === 'int8') await kernelThreadsReady();
  return model;
}

/**
 * Loads a Hugging Face encoder folder — `config.json` and `model.safetensors` (F32, F16 or BF16; or
 * a sharded checkpoint: `model.safetensors.index.json` and its shards) — from a local folder
 * (Node), a URL, a set of files (browser uploads) or a `ModelFiles` reader, building the model class
 * of its `model_type`: `bert` ({@link BertModel}), `roberta` and `xlm-roberta` ({@link RobertaModel}),
 * `distilbert` ({@link DistilBertModel}), `electra` ({@link ElectraModel}), `mpnet`
 * ({@link MPNetModel}), `roformer` ({@link RoFormerModel}), `modernbert` ({@link ModernBertModel}). BERT, RoBERTa, XLM-R and ELECTRA folders
 * with `position_embedding_type` `relative_key` or `relative_key_query` load with their
 * `distance_embedding` tables (as transformers ≤ 4.57 builds them; transformers 5 ignores the
 * setting). A folder that needs its own code (`auto_map`, `nomic_bert`, `new`, ...) is refused by
 * name. Names with or without the family's prefix (`bert.`, `roberta.`, ...) and
 * legacy `gamma` / `beta` are accepted (see `checkpointKeys`); heads are skipped with a notice;
 * missing, unexpected or mis-shaped tensors give one {@link ModelLoadError} listing all of them;
 * an unknown `model_type` is an error naming the supported ones. The weights are made on the
 * backend active when the call is made (or `options.backend`), whatever happens meanwhile;
 * `options.signal` aborts the load; `options.fetch` (e.g. `cachedFetch()`) fetches URL sources
 * instead of the global `fetch`; `options.quantize: 'int8'` makes an int8 inference model (its
 * `Linear` layers, pooler included, become `Int8Linear`; see {@link LoadEncoderOptions.quantize}).
 * A URL that answers `config.json` with an HTML page is an error saying it is not the model
 * folder's URL.
 *
 * @example
 * const encoder = await loadEncoder('./paraphrase-multilingual-MiniLM-L12-v2');
 * const { lastHiddenState } = encoder.forward(tokenizer.encode(['Hallo Welt'])); // [1, T, E]
 * const int8 = await loadEncoder('./all-MiniLM-L6-v2', { quantize: 'int8' }); // int8 matrix products, inference only
 */
export function loadEncoder(source: ModelSource | ModelFiles, options: LoadEncoderOptions = {}): Promise<Encoder> {
  return loadEncoderFolder(source, options, {
    caller: 'loadEncoder',
    parseConfig: (json) => parseEncoderConfig(json),
    build: (config, { checkpoint }) => ENCODER_CLASSES[config.modelType](config, checkpoint),
  });
}
