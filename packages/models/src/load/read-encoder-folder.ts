import { checkFunction, checkOptionKeys } from '@attnkit/errors';
import { checkModelFiles, nonFiniteTensors, parseInt8QuantizationConfig, readCheckpoint, readInt8WeightTensors, ModelLoadError, type Int8WeightTensors, type ModelFiles, type StoredTensor } from '@attnkit/hub';
import type { EncoderConfig, ModelType } from '../encoder/encoder-config.js';

/** What an encoder folder holds, read and checked, before anything is made on a backend. */
export interface EncoderFolder<C extends EncoderConfig = EncoderConfig> {
  readonly files: ModelFiles;
  readonly config: C;
  /** Every stored tensor by its stored name (one file or all shards). */
  readonly tensors: ReadonlyMap<string, StoredTensor>;
  /** The int8 weights (`<linear>.weight` I8 with `_scale`), empty for a float folder. */
  readonly int8: Int8WeightTensors;
}

/** Options of {@link readEncoderFolder}. */
export interface ReadEncoderFolderOptions<C extends EncoderConfig> {
  /** The family's config parser (`parseEncoderConfig` for any family); its errors become `ModelLoadError`s naming config.json. */
  readonly parseConfig: (json: unknown) => C;
  /** The `model_type`s the loader takes (all when absent); another is a `ModelLoadError` naming the loader's and `loadEncoder`. */
  readonly modelTypes?: readonly ModelType[] | undefined;
  /** Refuse weights holding NaN or ±Infinity (reads every value once). */
  readonly checkFinite?: boolean | undefined;
}

/**
 * Step 1 of loading an encoder: `config.json` parsed by the family's parser, the checkpoint read
 * (`model.safetensors` or its shards), and its int8 weights matched against `config.json`'s
 * `quantization_config`. Every problem is a `ModelLoadError` naming the file; nothing is allocated.
 *
 * @example
 * const folder = await readEncoderFolder(modelFiles('./all-MiniLM-L6-v2', { caller: 'loadEncoder' }), { parseConfig: parseEncoderConfig });
 * folder.config.modelType; // 'bert'
 */
export async function readEncoderFolder<C extends EncoderConfig>(files: ModelFiles, options: ReadEncoderFolderOptions<C>): Promise<EncoderFolder<C>> {
  const { where, caller } = checkModelFiles(files, 'readEncoderFolder');
  const { parseConfig, modelTypes, checkFinite = false } = checkOptionKeys(options, ['parseConfig', 'modelTypes', 'checkFinite'], 'readEncoderFolder');
  checkFunction(parseConfig, { caller: 'readEncoderFolder', argument: 'parseConfig', expected: 'a config parser such as parseEncoderConfig' });
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
    const modelType = typeof json === 'object' && json !== null && !Array.isArray(json) ? (new Map(Object.entries(json)).get('model_type') ?? 'bert') : undefined;
    if (modelTypes !== undefined && typeof modelType === 'string' && !(modelTypes as readonly string[]).includes(modelType)) refused = modelType;
    else config = parseConfig(json);
    int8Config = parseInt8QuantizationConfig((json as { quantization_config?: unknown }).quantization_config);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `is not a supported encoder config: ${(error as Error).message}`;
    fail('config.json', `config.json in ${where} ${detail}`, error);
  }
  if (refused !== undefined) fail('config.json', `config.json in ${where} has model_type "${refused}"; ${caller} loads ${(modelTypes ?? []).map((t) => `"${t}"`).join(', ')}. loadEncoder loads every supported family.`);
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
