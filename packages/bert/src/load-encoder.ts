import { AttnkitError, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { callBackend, ensureBackend } from '@attnkit/backends';
import { loadInt8LinearLayers, quantizeLinearLayers, readSafetensors, type Int8Linear, type Module, type StateDictSource, type TensorData } from '@attnkit/nn';
import { kernelThreadsReady } from '@attnkit/kernels';
import { BertModel } from './bert-model.js';
import { checkpointKeys } from './checkpoint-keys.js';
import { DistilBertModel } from './distilbert/distilbert-model.js';
import { ElectraModel } from './electra/electra-model.js';
import type { Encoder } from './encoder.js';
import { parseEncoderConfig, type EncoderConfig, type ModelType } from './encoder-config.js';
import { parseInt8QuantizationConfig } from './int8-quantization-config.js';
import { readInt8WeightTensors, type StoredTensor } from './int8-weight-tensors.js';
import { nonFiniteTensors } from './non-finite-tensors.js';
import { checkModelSource, modelFiles, type LoadProgress, type ModelSource } from './model-files.js';
import { ModelLoadError } from './model-load-error.js';
import { MPNetModel } from './mpnet/mpnet-model.js';
import { RobertaModel } from './roberta/roberta-model.js';

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

const OPTION_KEYS = ['onProgress', 'onNotice', 'signal', 'checkFinite', 'backend', 'fetch', 'quantize'] as const;

/** `options.quantize`: absent or `'int8'`. */
function checkQuantize(value: unknown, caller: string): void {
  if (value !== undefined && value !== 'int8') throw new InvalidArgumentError({ caller, argument: 'quantize', expected: "'int8' (or absent for float32 weights)", received: describeValue(value) });
}

/** The model class of each `model_type`. */
const FAMILIES: Record<ModelType, (config: EncoderConfig, checkpoint: StateDictSource) => Encoder> = {
  bert: (c, w) => new BertModel(c, w),
  roberta: (c, w) => new RobertaModel(c, w),
  'xlm-roberta': (c, w) => new RobertaModel(c, w),
  distilbert: (c, w) => new DistilBertModel(c, w),
  electra: (c, w) => new ElectraModel(c, w),
  mpnet: (c, w) => new MPNetModel(c, w),
};

/** Where a source is, for messages. */
export function describeSource(source: ModelSource): string {
  return typeof source === 'object' && !(source instanceof URL) ? 'the given files' : String(source);
}

/**
 * Builds the model of a loaded folder: the encoder's values by parameter key, and the head tensors
 * (`cls.*`, `lm_head.*`, ...) by stored name. Runs on the load's backend; may throw typed errors.
 */
export type BuildLoadedModel<M extends Module & { readonly initialisedKeys: readonly string[] }> = (config: EncoderConfig, checkpoint: StateDictSource, heads: ReadonlyMap<string, TensorData>) => M;

/**
 * Loads a folder's encoder, accepting the `model_type`s in `accept` (all when undefined); `caller`
 * names the loader in errors. `build` makes something else than the family's encoder from the
 * same checkpoint (a model with a head); heads are then its to use, not skipped.
 */
export async function loadEncoderAs<M extends Module & { readonly initialisedKeys: readonly string[] } = Encoder>(source: ModelSource, options: LoadEncoderOptions, caller: string, accept?: readonly ModelType[], build?: BuildLoadedModel<M>, encoderPath = ''): Promise<M> {
  checkModelSource(source, caller);
  checkObject(options, { caller, argument: 'options', expected: 'an object of load options' });
  checkOptionKeys(options, OPTION_KEYS, caller); // a misspelled option is an error, never ignored
  checkQuantize(options.quantize, caller);
  if (options.backend === undefined) await ensureBackend(caller); // Node, nothing chosen: wasm, not tfjs' slow pure-JS cpu
  const backend = callBackend(caller, options.backend); // the backend this call started on
  const read = modelFiles(source, { caller, ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }), ...(options.signal === undefined ? {} : { signal: options.signal }), ...(options.fetch === undefined ? {} : { fetch: options.fetch }) });
  const where = describeSource(source);
  const fail = (file: string, message: string, cause?: unknown): never => {
    throw new ModelLoadError(file, message, cause, caller);
  };
  const configBytes = await read('config.json', { required: true });
  if (configBytes === undefined) fail('config.json', `config.json is missing in ${where}; a Hugging Face model folder has config.json and model.safetensors.`);
  let config: EncoderConfig | undefined;
  let int8Config = false;
  try {
    const json = JSON.parse(new TextDecoder().decode(configBytes)) as unknown;
    config = parseEncoderConfig(json, accept?.length === 1 && accept[0] === 'bert' ? 'parseBertConfig' : 'parseEncoderConfig');
    int8Config = parseInt8QuantizationConfig((json as { quantization_config?: unknown }).quantization_config);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `is not a supported encoder config: ${(error as Error).message}`;
    fail('config.json', `config.json in ${where} ${detail}`, error);
  }
  const c = config as EncoderConfig;
  if (accept !== undefined && !accept.includes(c.modelType)) fail('config.json', `config.json in ${where} has model_type "${c.modelType}"; ${caller} loads ${accept.map((t) => `"${t}"`).join(', ')}. loadEncoder loads every supported family.`);
  const weightBytes = await read('model.safetensors', { required: true });
  if (weightBytes === undefined) {
    const legacy = (await read('pytorch_model.bin')) !== undefined;
    fail('model.safetensors', `model.safetensors is missing in ${where}${legacy ? ' (it has pytorch_model.bin: convert it with safetensors\' convert script or save_pretrained(safe_serialization=True))' : ''}.`);
  }
  let tensors: ReadonlyMap<string, StoredTensor> | undefined;
  try {
    tensors = readSafetensors(weightBytes as Uint8Array, { keepInt8: true }).tensors; // int8 weights stay one byte a value
  } catch (error) {
    fail('model.safetensors', `model.safetensors in ${where}: ${(error as Error).message}`, error);
  }
  const stored = tensors as ReadonlyMap<string, StoredTensor>;
  const int8 = readInt8WeightTensors(stored);
  if (int8.problems.length > 0) fail('model.safetensors', `model.safetensors in ${where} has int8 tensors that do not fit the int8 layout (<linear>.weight I8 [out, in] with <linear>.weight_scale F32 [out, 1]): ${int8.problems.slice(0, 3).join('; ')}${int8.problems.length > 3 ? `; and ${int8.problems.length - 3} more` : ''}.`);
  if (int8.weights.size > 0 && !int8Config) fail('config.json', `model.safetensors in ${where} holds int8 weights (${[...int8.weights.keys()][0]}, ...) but config.json has no compressed-tensors quantization_config saying so; an int8 folder is written with its config (saveInt8Folder).`);
  if (int8.weights.size === 0 && int8Config) fail('model.safetensors', `config.json in ${where} describes an int8 model (quantization_config) but model.safetensors holds no int8 (I8) weight.`);
  if (options.checkFinite === true) {
    const bad = nonFiniteTensors(stored);
    if (bad.length > 0) fail('model.safetensors', `model.safetensors in ${where} has non-finite weights (checkFinite): ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? `; and ${bad.length - 3} more tensors` : ''}.`);
  }
  const { keys, skipped, duplicates } = checkpointKeys([...stored.keys()].filter((name) => !int8.scales.has(name)), c.modelType);
  if (duplicates.length > 0) {
    const listed = duplicates.slice(0, 5).map(([key, names]) => {
      const dtypes = names.map((name) => stored.get(name)!.dtype);
      return `${names.join(' and ')} (both ${key}${dtypes.includes('I8') && dtypes.some((d) => d !== 'I8') ? ': a float and an int8 copy' : ''})`;
    }).join('; ');
    fail('model.safetensors', `model.safetensors in ${where} has several tensors for one weight: ${listed}${duplicates.length > 5 ? `, and ${duplicates.length - 5} more` : ''}. Keep one of each.`);
  }
  // The file's values as they are: each becomes a tensor only when its parameter is assigned, so the
  // weights never sit on the backend twice.
  const int8Heads = skipped.filter((name) => int8.weights.has(name));
  if (int8Heads.length > 0) fail('model.safetensors', `model.safetensors in ${where} has int8 weights for heads the encoder does not have (${int8Heads.slice(0, 3).join(', ')}); attnkit keeps heads float32 (F32).`);
  // An int8 weight enters the float model as a zero placeholder of its shape (one buffer per size,
  // never filled) and its Linear is replaced right after the build by an Int8Linear holding the
  // stored int8 values and scales; the int8 values are never widened to float.
  const zeros = new Map<number, Float32Array>();
  const placeholder = ({ inFeatures, outFeatures }: Int8Linear['weight']): TensorData => {
    const size = inFeatures * outFeatures;
    if (!zeros.has(size)) zeros.set(size, new Float32Array(size));
    return { shape: [outFeatures, inFeatures], values: zeros.get(size)! };
  };
  const int8Layers = new Map<string, Int8Linear['weight']>();
  const checkpoint = new Map([...keys].map(([name, key]) => {
    const weight = int8.weights.get(name);
    if (weight === undefined) return [key, stored.get(name) as TensorData] as const; // not I8: readInt8WeightTensors accounted for every I8 tensor
    int8Layers.set(`${encoderPath}${key.slice(0, -'.weight'.length)}`, weight);
    return [key, placeholder(weight)] as const;
  }));
  if (skipped.length > 0 && build === undefined) options.onNotice?.(`${caller}: skipped ${skipped.length} tensors of heads the encoder does not have (${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', ...' : ''}); it does not use them.`);
  let model: M | undefined;
  await backend.settled();
  options.signal?.throwIfAborted();
  try {
    const heads = new Map(skipped.map((name) => [name, stored.get(name) as TensorData] as const)); // no head is I8 (refused above)
    model = backend.run(() => (build === undefined ? FAMILIES[c.modelType](c, checkpoint) as unknown as M : build(c, checkpoint, heads)));
  } catch (error) {
    if (error instanceof ModelLoadError) throw error;
    if (error instanceof AttnkitError) fail('model.safetensors', `model.safetensors in ${where} does not match config.json: ${error.message}`, error);
    throw error;
  }
  const m = model as M;
  if (int8Layers.size > 0) {
    try {
      backend.run(() => loadInt8LinearLayers(m, int8Layers));
    } catch (error) {
      m.dispose();
      fail('model.safetensors', `model.safetensors in ${where} has int8 weights that do not fit the model (each names <linear>.weight): ${(error as Error).message}`, error);
    }
    if (options.quantize === undefined) {
      const encoder = encoderPath === '' ? m : new Map(m.namedModules()).get(encoderPath.slice(0, -1)) as Module; // heads of a build stay as they are
      backend.run(() => quantizeLinearLayers(encoder)); // an initialised pooler (a folder without one), as quantize: 'int8' would
      options.onNotice?.(`${caller}: ${where} is an int8 folder (config.json's quantization_config); loaded as an int8 inference model, ${int8Layers.size} Int8Linear layers built from the stored int8 weights.`);
    }
  }
  if (options.quantize === 'int8') {
    try {
      backend.run(() => quantizeLinearLayers(m)); // on the load's backend: the int8 layers' float biases are made there
    } catch (error) {
      m.dispose();
      fail('model.safetensors', `model.safetensors in ${where} cannot be quantized to int8: ${(error as Error).message}`, error);
    }
  }
  if (build === undefined && m.initialisedKeys.length > 0) options.onNotice?.(`${caller}: ${where} has no pooler (a checkpoint saved without one); ${m.initialisedKeys.join(' and ')} are initialised randomly, as transformers does: poolerOutput is not meaningful until trained.`);
  // the hand-written kernels' workers (int8 products, fused attention on wasm) up before the first forward: a browser starts them a task later otherwise
  if (backend.name === 'wasm' || int8Layers.size > 0 || options.quantize === 'int8') await kernelThreadsReady();
  return m;
}

/**
 * Loads a Hugging Face encoder folder — `config.json` and `model.safetensors` (F32, F16 or BF16) —
 * from a local folder (Node), a URL, or a set of files (browser uploads), building the model class
 * of its `model_type`: `bert` ({@link BertModel}), `roberta` and `xlm-roberta` ({@link RobertaModel}),
 * `distilbert` ({@link DistilBertModel}), `electra` ({@link ElectraModel}), `mpnet`
 * ({@link MPNetModel}). Names with or without the family's prefix (`bert.`, `roberta.`, ...) and
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
export function loadEncoder(source: ModelSource, options: LoadEncoderOptions = {}): Promise<Encoder> {
  return loadEncoderAs(source, options, 'loadEncoder');
}
