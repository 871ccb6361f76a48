import { AttnkitError } from '@attnkit/errors';
import { readSafetensors } from '@attnkit/nn';
import { parseBertConfig, type BertConfig } from './bert-config.js';
import { BertLoadError } from './bert-load-error.js';
import { BertModel } from './bert-model.js';
import { bertCheckpointKeys } from './bert-checkpoint-keys.js';
import { modelFiles, type LoadProgress, type ModelSource } from './model-files.js';

/** Options of {@link loadBert}. */
export interface LoadBertOptions {
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Told about tensors that are skipped on purpose (pre-training heads such as `cls.*`). */
  readonly onNotice?: (message: string) => void;
}

/**
 * Loads a Hugging Face BERT folder — `config.json` and `model.safetensors` (F32, F16 or BF16) —
 * from a local folder (Node), a URL, or a set of files (browser uploads). Names with or without
 * the `bert.` prefix and legacy `LayerNorm.gamma` / `LayerNorm.beta` names are accepted (see
 * `bertCheckpointKeys`); heads (`cls.*`, `classifier.*`) are skipped with a notice; missing,
 * unexpected or mis-shaped tensors give one {@link BertLoadError} listing all of them, and two
 * tensors for one weight are an error.
 *
 * @example
 * const model = await loadBert('./models/attnkit-tiny-bert', { onProgress: (p) => console.log(p) });
 */
export async function loadBert(source: ModelSource, options: LoadBertOptions = {}): Promise<BertModel> {
  const read = modelFiles(source, options.onProgress);
  const where = typeof source === 'object' && !(source instanceof URL) ? 'the given files' : String(source);
  const configBytes = await read('config.json');
  if (configBytes === undefined) throw new BertLoadError('config.json', `config.json is missing in ${where}; a Hugging Face BERT folder has config.json and model.safetensors.`);
  let config: BertConfig;
  try {
    config = parseBertConfig(JSON.parse(new TextDecoder().decode(configBytes)));
  } catch (error) {
    const detail = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `is not a supported BERT config: ${(error as Error).message}`;
    throw new BertLoadError('config.json', `config.json in ${where} ${detail}`, error);
  }
  const weightBytes = await read('model.safetensors');
  if (weightBytes === undefined) {
    const legacy = (await read('pytorch_model.bin')) !== undefined;
    throw new BertLoadError('model.safetensors', `model.safetensors is missing in ${where}${legacy ? ' (it has pytorch_model.bin: convert it with safetensors\' convert script or save_pretrained(safe_serialization=True))' : ''}.`);
  }
  let file;
  try {
    file = readSafetensors(weightBytes);
  } catch (error) {
    throw new BertLoadError('model.safetensors', `model.safetensors in ${where}: ${(error as Error).message}`, error);
  }
  const { keys, skipped, duplicates } = bertCheckpointKeys(file.tensors.keys());
  if (duplicates.length > 0) {
    const listed = duplicates.slice(0, 5).map(([key, stored]) => `${stored.join(' and ')} (both ${key})`).join('; ');
    throw new BertLoadError('model.safetensors', `model.safetensors in ${where} has several tensors for one weight: ${listed}${duplicates.length > 5 ? `, and ${duplicates.length - 5} more` : ''}. Keep one of each.`);
  }
  // The file's values as they are: each becomes a tensor only when its parameter is assigned, so the
  // weights never sit on the backend twice.
  const checkpoint = new Map([...keys].map(([stored, key]) => [key, file.tensors.get(stored)!] as const));
  if (skipped.length > 0) options.onNotice?.(`loadBert: skipped ${skipped.length} tensors of heads a BertModel does not have (${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', ...' : ''}); the encoder does not use them.`);
  let model: BertModel;
  try {
    model = new BertModel(config, checkpoint);
  } catch (error) {
    if (error instanceof AttnkitError) throw new BertLoadError('model.safetensors', `model.safetensors in ${where} does not match config.json: ${error.message}`, error);
    throw error;
  }
  if (model.initialisedKeys.length > 0) options.onNotice?.(`loadBert: ${where} has no pooler (a checkpoint saved without one); ${model.initialisedKeys.join(' and ')} are initialised randomly, as transformers does: poolerOutput is not meaningful until trained.`);
  return model;
}
