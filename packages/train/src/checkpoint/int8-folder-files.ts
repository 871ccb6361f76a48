import { InvalidArgumentError, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { int8EncoderFiles } from '@attnkit/models';
import { modelFiles, type ModelFiles, type ModelSource } from '@attnkit/hub';
import { readSentenceFolder } from '@attnkit/sentence';
import { TOKENIZER_FILES } from './sentence-folder-files.js';

/** Files of a sentence-transformers folder's root, copied as they are when present. */
const SENTENCE_FILES = ['modules.json', 'config_sentence_transformers.json', 'sentence_bert_config.json', 'README.md'] as const;
/** Files of its other modules (Pooling, Dense, Normalize, ...), copied as they are when present: Dense weights stay float32. */
const MODULE_FILES = ['config.json', 'model.safetensors'] as const;

/**
 * Every file of the int8 folder made from the float folder `source`, by path inside the folder:
 * the encoder's `config.json` and `model.safetensors` from `int8EncoderFiles` of `@attnkit/models`
 * (each Linear weight I8 `[out, in]` with an F32 `[out, 1]` scale, in `compressed-tensors`'
 * `int-quantized` layout, and a `quantization_config`), and the rest copied as it is: the tokenizer
 * files ({@link TOKENIZER_FILES}); for a sentence-transformers folder (one with `modules.json`)
 * also `modules.json`, `config_sentence_transformers.json`, `sentence_bert_config.json`,
 * `README.md` and each other module's `config.json` and `model.safetensors` (Pooling, Dense,
 * Normalize: Dense stays float32). The encoder goes where `modules.json` puts it.
 *
 * @example
 * const files = await int8FolderFiles('./all-MiniLM-L6-v2'); // Map { 'config.json' => bytes, 'model.safetensors' => bytes, 'modules.json' => bytes, ... }
 */
export async function int8FolderFiles(source: ModelSource | ModelFiles, options: { readonly onNotice?: (message: string) => void } = {}, caller = 'saveInt8Folder'): Promise<Map<string, Uint8Array>> {
  checkObject(options, { caller, argument: 'options', expected: 'an options object { onNotice? }' });
  checkOptionKeys(options, ['onNotice'], caller);
  if (options.onNotice !== undefined && typeof options.onNotice !== 'function') throw new InvalidArgumentError({ caller, argument: 'onNotice', expected: 'a function (message) => void', received: describeValue(options.onNotice) });
  const read = modelFiles(source, { caller }); // each file read once, by whichever step needs it first
  const sentence = (await read.read('modules.json')) !== undefined;
  const transformerPath = sentence ? (await readSentenceFolder(read)).transformerPath.replace(/\/+$/, '') : ''; // checks the folder
  const prefix = transformerPath === '' ? '' : `${transformerPath}/`;
  const transformer = read.subfolder(transformerPath);
  const files = new Map<string, Uint8Array>();
  const copy = async (from: ModelFiles, names: readonly string[], under: string) => {
    for (const name of names) {
      const bytes = await from.read(name);
      if (bytes !== undefined) files.set(`${under}${name}`, bytes);
    }
  };
  for (const [name, bytes] of await int8EncoderFiles(transformer, options.onNotice === undefined ? {} : { onNotice: options.onNotice })) files.set(`${prefix}${name}`, bytes);
  await copy(transformer, [...TOKENIZER_FILES, ...(sentence ? ['sentence_bert_config.json'] : [])], prefix);
  if (!sentence) return files;
  await copy(read, SENTENCE_FILES, '');
  const modules = JSON.parse(new TextDecoder().decode(files.get('modules.json'))) as Array<{ readonly path: string }>; // readSentenceFolder checked it
  for (const { path } of modules) {
    const folder = path.replace(/\/+$/, '');
    if (folder !== transformerPath) await copy(read.subfolder(folder), MODULE_FILES, `${folder}/`);
  }
  return files;
}
