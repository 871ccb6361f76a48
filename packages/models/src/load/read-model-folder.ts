import { checkBoolean, checkFunction, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { checkModelFiles, nonFiniteTensors, parseInt8QuantizationConfig, readCheckpoint, readInt8WeightTensors, ModelLoadError, type Int8WeightTensors, type ModelFiles, type StoredTensor } from '@attnkit/hub';

/** What a model folder holds, read and checked, before anything is made on a backend. */
export interface ModelFolder<C> {
  readonly files: ModelFiles;
  readonly config: C;
  /** Every stored tensor by its stored name (one file or all shards). */
  readonly tensors: ReadonlyMap<string, StoredTensor>;
  /** The int8 weights (`<linear>.weight` I8 with `_scale`), empty for a float folder. */
  readonly int8: Int8WeightTensors;
}

/** How {@link readModelFolder} reads one kind of model (encoders, decoders). */
export interface ReadModelFolderOptions<C> {
  /** The family's config parser; its errors become `ModelLoadError`s naming config.json. */
  readonly parseConfig: (json: unknown) => C;
  /** The `model_type`s the loader takes (all that `parseConfig` reads when absent); another is a `ModelLoadError`. */
  readonly modelTypes?: readonly string[] | undefined;
  /** Refuse weights holding NaN or ±Infinity (reads every value once). */
  readonly checkFinite?: boolean | undefined;
  /** The kind of model, in messages (`'encoder'`: "is not a supported encoder config"). */
  readonly kind: string;
  /** The `model_type` of a config.json without one (`'bert'` for encoders); absent: none assumed. */
  readonly defaultModelType?: string | undefined;
  /** The loader that loads every family of this kind, named when `modelTypes` refuses one (`'loadEncoder'`). */
  readonly everyFamily: string;
}

/**
 * Reads and checks a model folder, for any kind of model: `config.json` parsed by the family's parser,
 * the checkpoint read (`model.safetensors` or its shards), and its int8 weights matched against
 * `config.json`'s `quantization_config`. Every problem is a `ModelLoadError` naming the file; nothing
 * is allocated. `readEncoderFolder` and the causal-LM loader are this with their parsers.
 *
 * @example
 * const folder = await readModelFolder(files, { parseConfig: parseDecoderConfig, kind: 'decoder', everyFamily: 'loadCausalLM' });
 */
export async function readModelFolder<C>(files: ModelFiles, options: ReadModelFolderOptions<C>): Promise<ModelFolder<C>> {
  const { where, caller } = checkModelFiles(files, 'readModelFolder');
  checkObject(options, { caller: 'readModelFolder', argument: 'options', expected: 'an object { parseConfig, kind, everyFamily, ... }' });
  const { parseConfig, modelTypes, checkFinite = false, kind, defaultModelType, everyFamily } = checkOptionKeys(options, ['parseConfig', 'modelTypes', 'checkFinite', 'kind', 'defaultModelType', 'everyFamily'], 'readModelFolder');
  checkFunction(parseConfig, { caller: 'readModelFolder', argument: 'parseConfig', expected: 'a config parser such as parseEncoderConfig' });
  checkModelTypes(modelTypes, 'readModelFolder');
  checkBoolean(checkFinite, { caller: 'readModelFolder', argument: 'checkFinite', fallback: false });
  const names = { kind, everyFamily, defaultModelType };
  for (const [argument, name] of Object.entries(names)) {
    if ((argument !== 'defaultModelType' || name !== undefined) && (typeof name !== 'string' || name === '')) throw new InvalidArgumentError({ caller: 'readModelFolder', argument, expected: argument === 'defaultModelType' ? "absent or the model_type of a config without one ('bert')" : 'a non-empty name for messages', received: describeValue(name) });
  }
  const fail = (file: string, message: string, cause?: unknown): never => {
    throw new ModelLoadError(file, message, cause, caller);
  };
  const configBytes = await files.read('config.json', { required: true });
  if (configBytes === undefined) fail('config.json', `config.json is missing in ${where}; a Hugging Face model folder has config.json and model.safetensors.`);
  let config: C | undefined;
  let int8Config = false;
  let refused: string | undefined; // a model_type the loader does not take
  try {
    const json = JSON.parse(new TextDecoder().decode(configBytes)) as unknown;
    const modelType = typeof json === 'object' && json !== null && !Array.isArray(json) ? (new Map(Object.entries(json)).get('model_type') ?? defaultModelType) : undefined;
    if (modelTypes !== undefined && typeof modelType === 'string' && !modelTypes.includes(modelType)) refused = modelType;
    else config = parseConfig(json);
    int8Config = parseInt8QuantizationConfig((json as { quantization_config?: unknown }).quantization_config);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `is not a supported ${kind} config: ${(error as Error).message}`;
    fail('config.json', `config.json in ${where} ${detail}`, error);
  }
  if (refused !== undefined) fail('config.json', `config.json in ${where} has model_type "${refused}"; ${caller} loads ${(modelTypes ?? []).map((t) => `"${t}"`).join(', ')}. ${everyFamily} loads every supported family.`);
  const { tensors } = await readCheckpoint(files);
  const int8 = readInt8WeightTensors(tensors);
  if (int8.problems.length > 0) fail('model.safetensors', `model.safetensors in ${where} has int8 tensors that do not fit the int8 layout (<linear>.weight I8 [out, in] with <linear>.weight_scale F32 [out, 1]): ${int8.problems.slice(0, 3).join('; ')}${int8.problems.length > 3 ? `; and ${int8.problems.length - 3} more` : ''}.`);
  if (int8.weights.size > 0 && !int8Config) fail('config.json', `model.safetensors in ${where} holds int8 weights (${[...int8.weights.keys()][0]}, ...) but config.json has no compressed-tensors quantization_config saying so; an int8 folder is written with its config (saveInt8Folder).`);
  if (int8.weights.size === 0 && int8Config) fail('model.safetensors', `config.json in ${where} describes an int8 model (quantization_config) but model.safetensors holds no int8 (I8) weight.`);
  if (checkFinite) {
    const bad = nonFiniteTensors(tensors);
    if (bad.length > 0) fail('model.safetensors', `model.safetensors in ${where} has non-finite weights (checkFinite): ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? `; and ${bad.length - 3} more tensors` : ''}.`);
  }
  return { files, config: config as C, tensors, int8 };
}

/**
 * Checks a loader's `modelTypes`: absent (every family its parser reads) or a list of `model_type`
 * strings.
 *
 * @example
 * checkModelTypes(['bert'], 'readEncoderFolder');
 */
export function checkModelTypes(modelTypes: unknown, caller: string): void {
  if (modelTypes !== undefined && (!Array.isArray(modelTypes) || !modelTypes.every((t) => typeof t === 'string'))) {
    throw new InvalidArgumentError({ caller, argument: 'modelTypes', expected: "absent or a list of model_type strings (['bert'])", received: describeValue(modelTypes) });
  }
}
