import { nodeBuiltin } from '@attnkit/errors';
import { ModelLoadError } from '../model-load-error.js';
import type { FileReader, ReadContext } from './file-reader.js';
import { MAX_MODEL_FILE_BYTES } from './max-model-file-bytes.js';

/**
 * A reader of a local folder (Node). Links are followed (the Hugging Face cache links its snapshot
 * files to blobs); a name that is not a regular file (a folder, a device such as `/dev/zero`, a
 * pipe) or is over 2 GiB is a `ModelLoadError`, a missing one is `undefined`.
 *
 * @example
 * const read = localFilesReader('./models/tiny', context);
 */
export function localFilesReader(folder: string, { caller, signal, onProgress }: ReadContext): FileReader {
  return async (name) => {
    signal?.throwIfAborted();
    const { readFile, stat } = nodeBuiltin('node:fs/promises');
    const { join } = nodeBuiltin('node:path');
    const path = join(folder, name);
    try {
      const info = await stat(path); // follows links (the Hugging Face cache links its files)
      if (!info.isFile()) throw new ModelLoadError(name, `${path} is not a regular file (a ${info.isDirectory() ? 'folder' : 'device, pipe or socket'}); a model file must be one.`, undefined, caller);
      if (info.size > MAX_MODEL_FILE_BYTES) throw new ModelLoadError(name, `${path} has ${info.size} bytes, more than the ${MAX_MODEL_FILE_BYTES} (2 GiB) attnkit reads for one model file.`, undefined, caller);
      onProgress?.({ file: name, loaded: 0, total: info.size });
      const bytes = new Uint8Array(await readFile(path, signal === undefined ? {} : { signal }));
      onProgress?.({ file: name, loaded: bytes.length, total: info.size });
      return bytes;
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (error instanceof ModelLoadError) throw error;
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw new ModelLoadError(name, `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}.`, error, caller);
    }
  };
}
