import { checkModelSource, type ModelSource } from '@attnkit/hub';
import { InvalidArgumentError, checkBoolean, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { SentenceEncoder } from '@attnkit/sentence';
import { sentenceFolderFiles } from './sentence-folder-files.js';
import { writeFolderAtomically } from './write-folder-atomically.js';

/** Options of {@link saveSentenceFolder}. */
export interface SaveSentenceFolderOptions {
  /** The folder (or URL, or files) the model was loaded from: its tokenizer files and `config.json` are copied from there. */
  readonly source: ModelSource;
  /** Replace a non-empty folder at `folder` (default false). */
  readonly overwrite?: boolean;
}

/**
 * Saves `model` as a sentence-transformers folder that both `loadSentenceEncoder(folder)` and
 * Python's `SentenceTransformer(folder)` load to the same embeddings: the file layout
 * `SentenceTransformer.save` writes (see `sentenceFolderFiles`), float32 weights under the
 * family's Hugging Face keys, tokenizer files copied from `source`. The folder is written to a
 * temporary sibling and renamed into place, so a crash never leaves half of it. Node only.
 *
 * @example
 * const model = await loadSentenceEncoder('./attnkit-tiny-bert');
 * await trainSentenceEncoder(model, pairs, { loss: 'multiple-negatives-ranking' });
 * await saveSentenceFolder(model, './my-encoder', { source: './attnkit-tiny-bert' });
 */
export async function saveSentenceFolder(model: SentenceEncoder, folder: string, options: SaveSentenceFolderOptions): Promise<void> {
  const caller = 'saveSentenceFolder';
  if (!(model instanceof SentenceEncoder)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a SentenceEncoder (loadSentenceEncoder)', received: describeValue(model) });
  if (typeof folder !== 'string' || folder === '') throw new InvalidArgumentError({ caller, argument: 'folder', expected: 'a folder path (a non-empty string)', received: describeValue(folder) });
  checkObject(options, { caller, argument: 'options', expected: 'an object { source, overwrite? }' });
  checkOptionKeys(options, ['source', 'overwrite'], caller);
  checkModelSource(options.source, caller);
  const overwrite = checkBoolean(options.overwrite, { caller, argument: 'overwrite', fallback: false });
  const files = await sentenceFolderFiles(model, options.source, caller);
  await writeFolderAtomically(folder, files, { replace: overwrite, caller });
}
