import { checkBoolean, checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError, type StoredInt8Weight } from '@attnkit/hub';
import type { TensorData } from '@attnkit/nn';
import type { DecoderCheckpointKeys } from '../decoder/decoder-checkpoint-keys.js';
import type { DecoderConfig } from '../decoder/decoder-config.js';
import type { ModelFolder } from './read-model-folder.js';
import { transposeMatrix as transpose } from './transpose-matrix.js';

/** A decoder folder's tensors as the model tree takes them. */
export interface DecoderStateDict {
  /** The values by parameter key of the model built (an int8 weight as a zero placeholder of its shape). */
  readonly checkpoint: ReadonlyMap<string, TensorData>;
  /** Stored tensors the model does not use (a headless model's `lm_head.*`, a tied head's `lm_head.weight`), by stored name. */
  readonly skipped: readonly string[];
  /** The int8 weights by the path of their `Linear` in the model built. */
  readonly int8Layers: ReadonlyMap<string, StoredInt8Weight>;
}


/**
 * Step 2 of loading a decoder: stored names become the parameter keys of the model built, as the
 * family's table says (`keys`): a folder saved from the causal LM (`model.layers.0...`,
 * `lm_head.weight`) or from its base model (`layers.0...`) loads either way; a headless model drops
 * the base path and leaves the head out; a tied head (`tie_word_embeddings`) uses the embeddings, not a
 * stored `lm_head.weight`; buffers are skipped; `Conv1D` weights are transposed. Two tensors for one
 * weight are a `ModelLoadError`. Int8 weights enter as zero placeholders, as `encoderStateDict` does.
 *
 * @example
 * const { checkpoint } = decoderStateDict(await readModelFolder(files, options), ROTARY_DECODER_CHECKPOINT_KEYS, { headless: false });
 */
export function decoderStateDict(folder: ModelFolder<DecoderConfig>, keys: DecoderCheckpointKeys, options: { readonly headless: boolean }): DecoderStateDict {
  const caller = 'decoderStateDict';
  const { files, tensors, int8, config } = checkObject(folder, { caller, argument: 'folder', expected: 'a read decoder folder (readModelFolder)' });
  if (!(tensors instanceof Map) || typeof config?.modelType !== 'string' || !(int8?.weights instanceof Map)) throw new InvalidArgumentError({ caller, argument: 'folder', expected: 'a read decoder folder: { files, config, tensors, int8 }', received: describeValue(folder) });
  const { basePath, buffers, transposed } = checkObject(keys, { caller, argument: 'keys', expected: "a family's checkpoint-key table (ROTARY_DECODER_CHECKPOINT_KEYS, GPT2_CHECKPOINT_KEYS)" });
  if (typeof basePath !== 'string' || !(buffers instanceof RegExp) || !(transposed === undefined || transposed instanceof RegExp)) throw new InvalidArgumentError({ caller, argument: 'keys', expected: 'a checkpoint-key table { basePath, buffers, transposed? }', received: describeValue(keys) });
  const headless = checkBoolean(checkObject(options, { caller, argument: 'options', expected: 'an object { headless }' }).headless, { caller, argument: 'headless', fallback: false });
  const base = `${basePath}.`;
  const found = new Map<string, string[]>(); // key in the causal LM -> stored names
  for (const name of tensors.keys()) {
    if (int8.scales.has(name) || buffers.test(name)) continue;
    const key = name.startsWith(base) || name.startsWith('lm_head.') ? name : `${base}${name}`;
    found.set(key, [...(found.get(key) ?? []), name]);
  }
  const duplicates = [...found].filter(([, names]) => names.length > 1);
  if (duplicates.length > 0) {
    const listed = duplicates.slice(0, 5).map(([key, names]) => `${names.join(' and ')} (both ${key})`).join('; ');
    throw new ModelLoadError('model.safetensors', `model.safetensors in ${files.where} has several tensors for one weight: ${listed}${duplicates.length > 5 ? `, and ${duplicates.length - 5} more` : ''}. Keep one of each.`, undefined, files.caller);
  }
  const checkpoint = new Map<string, TensorData>();
  const int8Layers = new Map<string, StoredInt8Weight>();
  const skipped: string[] = [];
  const zeros = new Map<number, Float32Array>();
  for (const [key, [name]] of found as Map<string, [string]>) {
    const head = key.startsWith('lm_head.');
    if ((head && headless) || (key === 'lm_head.weight' && config.tieWordEmbeddings)) {
      skipped.push(name);
      continue;
    }
    const target = headless ? key.slice(base.length) : key;
    const weight = int8.weights.get(name);
    if (weight !== undefined) { // an int8 Linear: a zero placeholder, replaced by an Int8Linear right after the build
      const size = weight.inFeatures * weight.outFeatures;
      if (!zeros.has(size)) zeros.set(size, new Float32Array(size));
      checkpoint.set(target, { shape: [weight.outFeatures, weight.inFeatures], values: zeros.get(size)! });
      int8Layers.set(target.slice(0, -'.weight'.length), weight);
      continue;
    }
    const stored = tensors.get(name) as TensorData;
    checkpoint.set(target, transposed?.test(name) === true && stored.shape.length === 2 ? transpose(stored) : stored);
  }
  return { checkpoint, skipped, int8Layers };
}
