import { DecoderForCausalLM, type CausalLM } from '@attnkit/models';
import { checkModelSource } from '@attnkit/hub';
import { InvalidArgumentError, checkBoolean, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { causalLMFolderFiles } from './causal-lm-folder-files.js';
import type { SaveSentenceFolderOptions } from './save-sentence-folder.js';
import { writeFolderAtomically } from './write-folder-atomically.js';

/**
 * Saves a causal LM (GPT-2, Llama, Mistral, Qwen2, Qwen3; `loadCausalLM`) as the Hugging Face folder
 * `save_pretrained` writes (see `causalLMFolderFiles`): `loadCausalLM(folder)` and transformers'
 * `AutoModelForCausalLM.from_pretrained(folder)` load the same model. `source` is the folder it was
 * loaded from (config, generation config and tokenizer files are copied from it). Written to a
 * temporary sibling and renamed into place; an existing folder is replaced only with
 * `overwrite: true`. Node only.
 *
 * @example
 * const model = await loadCausalLM('./SmolLM2-135M');
 * await trainCausalLanguageModel(model, tokenizer, texts, { maxSteps: 100 });
 * await saveCausalLMFolder(model, './SmolLM2-135M-tuned', { source: './SmolLM2-135M' });
 */
export async function saveCausalLMFolder(model: CausalLM, folder: string, options: SaveSentenceFolderOptions): Promise<void> {
  const caller = 'saveCausalLMFolder';
  if (!(model instanceof DecoderForCausalLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a causal language model (loadCausalLM)', received: describeValue(model) });
  if (typeof folder !== 'string' || folder === '') throw new InvalidArgumentError({ caller, argument: 'folder', expected: 'a folder path (a non-empty string)', received: describeValue(folder) });
  checkObject(options, { caller, argument: 'options', expected: 'an object { source, overwrite? }' });
  checkOptionKeys(options, ['source', 'overwrite'], caller);
  checkModelSource(options.source, caller);
  const overwrite = checkBoolean(options.overwrite, { caller, argument: 'overwrite', fallback: false });
  await writeFolderAtomically(folder, await causalLMFolderFiles(model, options.source, caller), { replace: overwrite, caller });
}
