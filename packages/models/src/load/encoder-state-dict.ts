import { checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError, type StoredInt8Weight } from '@attnkit/hub';
import type { TensorData } from '@attnkit/nn';
import { checkpointKeys } from '../encoder/checkpoint-keys.js';
import type { EncoderFolder } from './read-encoder-folder.js';

/** A folder's tensors as the model tree takes them. */
export interface EncoderStateDict {
  /** The encoder's values by parameter key (an int8 weight as a zero placeholder of its shape). */
  readonly checkpoint: ReadonlyMap<string, TensorData>;
  /** Tensors of heads the encoder does not have (`cls.*`, `lm_head.*`, ...), by stored name. */
  readonly heads: ReadonlyMap<string, TensorData>;
  /** The int8 weights by the path of their `Linear` (under `encoderPath`). */
  readonly int8Layers: ReadonlyMap<string, StoredInt8Weight>;
}

/**
 * Step 2 of loading an encoder: stored names become parameter keys (`checkpointKeys`: the family's
 * prefix dropped, legacy names renamed, buffers ignored, heads set aside); two tensors for one
 * weight, or an int8 head, are a `ModelLoadError`. An int8 weight enters as a zero placeholder of
 * its shape (one buffer per size, never filled) and is listed in `int8Layers` under
 * `encoderPath` (`'bert.'` when the encoder sits inside a model with a head): its `Linear` is
 * replaced right after the build, so the int8 values are never widened to float. The values are
 * the file's: each becomes a tensor only when its parameter is assigned.
 *
 * @example
 * const { checkpoint, heads } = encoderStateDict(await readEncoderFolder(files, { parseConfig: parseBertConfig }));
 */
export function encoderStateDict(folder: EncoderFolder, encoderPath = ''): EncoderStateDict {
  const { files, tensors, int8, config } = checkObject(folder, { caller: 'encoderStateDict', argument: 'folder', expected: 'a read encoder folder (readEncoderFolder)' });
  if (!(tensors instanceof Map) || typeof config?.modelType !== 'string' || !(int8?.weights instanceof Map)) throw new InvalidArgumentError({ caller: 'encoderStateDict', argument: 'folder', expected: 'a read encoder folder (readEncoderFolder): { files, config, tensors, int8 }', received: describeValue(folder) });
  if (typeof encoderPath !== 'string' || !(encoderPath === '' || encoderPath.endsWith('.'))) throw new InvalidArgumentError({ caller: 'encoderStateDict', argument: 'encoderPath', expected: "where the encoder sits in the model: '' or a path ending in '.' ('bert.')", received: describeValue(encoderPath) });
  const fail = (message: string): never => {
    throw new ModelLoadError('model.safetensors', `model.safetensors in ${files.where} ${message}`, undefined, files.caller);
  };
  const { keys, skipped, duplicates } = checkpointKeys([...tensors.keys()].filter((name) => !int8.scales.has(name)), config.modelType);
  if (duplicates.length > 0) {
    const listed = duplicates.slice(0, 5).map(([key, names]) => {
      const dtypes = names.map((name) => tensors.get(name)!.dtype);
      return `${names.join(' and ')} (both ${key}${dtypes.includes('I8') && dtypes.some((d) => d !== 'I8') ? ': a float and an int8 copy' : ''})`;
    }).join('; ');
    fail(`has several tensors for one weight: ${listed}${duplicates.length > 5 ? `, and ${duplicates.length - 5} more` : ''}. Keep one of each.`);
  }
  const int8Heads = skipped.filter((name) => int8.weights.has(name));
  if (int8Heads.length > 0) fail(`has int8 weights for heads the encoder does not have (${int8Heads.slice(0, 3).join(', ')}); attnkit keeps heads float32 (F32).`);
  const zeros = new Map<number, Float32Array>();
  const placeholder = ({ inFeatures, outFeatures }: StoredInt8Weight): TensorData => {
    const size = inFeatures * outFeatures;
    if (!zeros.has(size)) zeros.set(size, new Float32Array(size));
    return { shape: [outFeatures, inFeatures], values: zeros.get(size)! };
  };
  const int8Layers = new Map<string, StoredInt8Weight>();
  const checkpoint = new Map([...keys].map(([name, key]) => {
    const weight = int8.weights.get(name);
    if (weight === undefined) return [key, tensors.get(name) as TensorData] as const; // not I8: readInt8WeightTensors accounted for every I8 tensor
    int8Layers.set(`${encoderPath}${key.slice(0, -'.weight'.length)}`, weight);
    return [key, placeholder(weight)] as const;
  }));
  const heads = new Map(skipped.map((name) => [name, tensors.get(name) as TensorData] as const)); // no head is I8 (refused above)
  return { checkpoint, heads, int8Layers };
}
