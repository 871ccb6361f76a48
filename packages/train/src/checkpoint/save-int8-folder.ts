import { checkModelSource, type ModelSource } from '@attnkit/hub';
import { InvalidArgumentError, checkBoolean, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { int8FolderFiles } from './int8-folder-files.js';
import { writeFolderAtomically } from './write-folder-atomically.js';

/** Options of {@link saveInt8Folder}. */
export interface SaveInt8FolderOptions {
  /** Replace a non-empty folder at `folder` (default false). */
  readonly overwrite?: boolean;
  /** Told about tensors left out (buffers) or stored as F32 (F16 / BF16 tensors that stay unquantized). */
  readonly onNotice?: (message: string) => void;
}

/**
 * Saves the int8 version of the float model folder `source` — a Hugging Face encoder folder
 * (`save_pretrained`) or a sentence-transformers folder — at `folder`: every Linear weight of the
 * encoder stored int8 per output channel (I8 `[out, in]` and an F32 `[out, 1]` scale, the
 * `compressed-tensors` `int-quantized` layout, with a `quantization_config` in `config.json`), the
 * rest copied as it is (see `int8FolderFiles`). The Linear weights take a quarter of their
 * float32 bytes. `loadEncoder(folder)` and `loadSentenceEncoder(folder)` load it as an int8
 * inference model that gives, bit for bit, what `quantize: 'int8'` gives on `source`. Written to
 * a temporary sibling and renamed into place. Node only.
 *
 * @example
 * await saveInt8Folder('./all-MiniLM-L6-v2', './all-MiniLM-L6-v2-int8');
 * const model = await loadSentenceEncoder('./all-MiniLM-L6-v2-int8'); // int8, from the int8 bytes
 */
export async function saveInt8Folder(source: ModelSource, folder: string, options: SaveInt8FolderOptions = {}): Promise<void> {
  const caller = 'saveInt8Folder';
  checkModelSource(source, caller);
  if (typeof folder !== 'string' || folder === '') throw new InvalidArgumentError({ caller, argument: 'folder', expected: 'a folder path (a non-empty string)', received: describeValue(folder) });
  checkObject(options, { caller, argument: 'options', expected: 'an object { overwrite?, onNotice? }' });
  const { onNotice } = checkOptionKeys(options, ['overwrite', 'onNotice'], caller);
  const overwrite = checkBoolean(options.overwrite, { caller, argument: 'overwrite', fallback: false });
  if (onNotice !== undefined && typeof onNotice !== 'function') throw new InvalidArgumentError({ caller, argument: 'onNotice', expected: 'a function (message) => void', received: describeValue(onNotice) });
  const files = await int8FolderFiles(source, onNotice === undefined ? {} : { onNotice }, caller);
  await writeFolderAtomically(folder, files, { replace: overwrite, caller });
}
