import { BertForMaskedLM } from '@attnkit/models';
import { modelFiles, type ModelFiles, type ModelSource } from '@attnkit/hub';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { checkFloatModel } from '../trainer/check-float-model.js';
import { encoderConfigJson } from './encoder-config-json.js';
import { moduleSafetensors, tokenizerFiles } from './sentence-folder-files.js';

const json = (value: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Every file of a Hugging Face `BertForMaskedLM` folder holding `model`, by name — what
 * `save_pretrained` writes, which transformers' `BertForMaskedLM.from_pretrained` and attnkit's
 * `loadBertForMaskedLM` (and, for the encoder alone, `loadBert`, `loadEncoder`,
 * `loadSentenceEncoder`) read: `config.json` (`architectures: ["BertForMaskedLM"]`, tied word
 * embeddings, float32), `model.safetensors` (float32: `bert.*` without the pooler, which the
 * logits do not use, and `cls.predictions.*`; the decoder is the word embeddings, so not stored), and
 * the tokenizer files copied from `source`, the folder the model was loaded from.
 *
 * @example
 * const files = await maskedLMFolderFiles(mlm, './attnkit-tiny-bert'); // Map { 'config.json' => bytes, ... }
 */
export async function maskedLMFolderFiles(model: BertForMaskedLM, source: ModelSource | ModelFiles, caller = 'saveMaskedLMFolder'): Promise<Map<string, Uint8Array>> {
  if (!(model instanceof BertForMaskedLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a BertForMaskedLM (loadBertForMaskedLM)', received: describeValue(model) });
  checkFloatModel([model], caller, 'save');
  const read = modelFiles(source, { caller });
  const originalBytes = await read.read('config.json');
  const original = originalBytes === undefined ? {} : (JSON.parse(new TextDecoder().decode(originalBytes)) as Record<string, unknown>);
  const files = new Map<string, Uint8Array>();
  files.set('config.json', json({ ...encoderConfigJson(model.config, original), architectures: ['BertForMaskedLM'], tie_word_embeddings: true }));
  files.set('model.safetensors', await moduleSafetensors(model.maskedLMParameters()));
  for (const [name, bytes] of await tokenizerFiles(read, caller)) files.set(name, bytes);
  return files;
}
