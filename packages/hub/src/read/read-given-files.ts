import type { FileReader, ReadContext } from './file-reader.js';

/**
 * A reader of files given as `{ files }` (browser uploads, tests): strings are UTF-8, Blobs are
 * read, byte arrays are returned as they are; a name the set does not hold is missing.
 *
 * @example
 * const read = givenFilesReader({ 'config.json': '{}' }, context);
 */
export function givenFilesReader(files: Readonly<Record<string, ArrayBuffer | Uint8Array | string | Blob>>, { signal, onProgress }: ReadContext): FileReader {
  return async (name) => {
    signal?.throwIfAborted();
    const file = Object.hasOwn(files, name) ? files[name] : undefined;
    if (file === undefined) return undefined;
    const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file instanceof Uint8Array ? file : file instanceof ArrayBuffer ? new Uint8Array(file) : new Uint8Array(await file.arrayBuffer());
    onProgress?.({ file: name, loaded: bytes.length, total: bytes.length });
    return bytes;
  };
}
