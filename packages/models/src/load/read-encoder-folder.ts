import { checkBoolean, checkFunction, checkOptionKeys } from '@attnkit/errors';
import { checkModelFiles, type ModelFiles } from '@attnkit/hub';
import type { EncoderConfig, ModelType } from '../encoder/encoder-config.js';
import { checkModelTypes, readModelFolder, type ModelFolder } from './read-model-folder.js';

/** What an encoder folder holds, read and checked, before anything is made on a backend. */
export type EncoderFolder<C extends EncoderConfig = EncoderConfig> = ModelFolder<C>;

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
 * Step 1 of loading an encoder: `config.json` parsed by the family's parser (a config without
 * `model_type` is BERT's), the checkpoint read (`model.safetensors` or its shards), and its int8
 * weights matched against `config.json`'s `quantization_config` — `readModelFolder` for encoders.
 * Every problem is a `ModelLoadError` naming the file; nothing is allocated.
 *
 * @example
 * const folder = await readEncoderFolder(modelFiles('./all-MiniLM-L6-v2', { caller: 'loadEncoder' }), { parseConfig: parseEncoderConfig });
 * folder.config.modelType; // 'bert'
 */
export async function readEncoderFolder<C extends EncoderConfig>(files: ModelFiles, options: ReadEncoderFolderOptions<C>): Promise<EncoderFolder<C>> {
  checkModelFiles(files, 'readEncoderFolder');
  const { parseConfig, modelTypes, checkFinite = false } = checkOptionKeys(options, ['parseConfig', 'modelTypes', 'checkFinite'], 'readEncoderFolder');
  checkFunction(parseConfig, { caller: 'readEncoderFolder', argument: 'parseConfig', expected: 'a config parser such as parseEncoderConfig' });
  checkModelTypes(modelTypes, 'readEncoderFolder');
  checkBoolean(checkFinite, { caller: 'readEncoderFolder', argument: 'checkFinite', fallback: false });
  return readModelFolder(files, { parseConfig, modelTypes, checkFinite, kind: 'encoder', defaultModelType: 'bert', everyFamily: 'loadEncoder' });
}
