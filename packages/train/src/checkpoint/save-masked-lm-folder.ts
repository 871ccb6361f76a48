import { BertForMaskedLM } from '@attnkit/models';
import { checkModelSource } from '@attnkit/hub';
import { InvalidArgumentError, checkBoolean, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { maskedLMFolderFiles } from './masked-lm-folder-files.js';
import type { SaveSentenceFolderOptions } from './save-sentence-folder.js';
import { writeFolderAtomically } from './write-folder-atomically.js';

/**
 * Saves a {@link BertForMaskedLM} as the Hugging Face folder `save_pretrained` writes (see
 * `maskedLMFolderFiles`): transformers' `BertForMaskedLM.from_pretrained(folder)` and
 * `loadBertForMaskedLM(folder)` load the same model, and every attnkit loader of encoders and
 * sentence encoders loads its encoder (a sentence encoder with mean pooling). Written to a temporary
 * sibling and renamed into place. Node only.
 *
 * @example
 * const mlm = await loadBertForMaskedLM('./attnkit-tiny-bert');
 * await trainMaskedLanguageModel(mlm, tokenizer, texts, { maxSteps: 1000 });
 * await saveMaskedLMFolder(mlm, './pretrained', { source: './attnkit-tiny-bert' });
 */
export async function saveMaskedLMFolder(model: BertForMaskedLM, folder: string, options: SaveSentenceFolderOptions): Promise<void> {
  const caller = 'saveMaskedLMFolder';
  if (!(model instanceof BertForMaskedLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a BertForMaskedLM (loadBertForMaskedLM)', received: describeValue(model) });
  if (typeof folder !== 'string' || folder === '') throw new InvalidArgumentError({ caller, argument: 'folder', expected: 'a folder path (a non-empty string)', received: describeValue(folder) });
  checkObject(options, { caller, argument: 'options', expected: 'an object { source, overwrite? }' });
  checkOptionKeys(options, ['source', 'overwrite'], caller);
  checkModelSource(options.source, caller);
  const overwrite = checkBoolean(options.overwrite, { caller, argument: 'overwrite', fallback: false });
  await writeFolderAtomically(folder, await maskedLMFolderFiles(model, options.source, caller), { replace: overwrite, caller });
}
