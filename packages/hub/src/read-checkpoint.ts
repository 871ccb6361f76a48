import { ModelLoadError } from './model-load-error.js';
import { checkModelFiles, type ModelFiles } from './model-files.js';
import { readSafetensors, type SafetensorsEntry } from './safetensors/read-safetensors.js';

/** A stored tensor as a checkpoint holds it: float32 (F32/F16/BF16 widened), int32 (I32/I64), or int8 (I8, one byte a value). */
export type StoredTensor = SafetensorsEntry<Float32Array | Int32Array | Int8Array>;

/** What {@link readCheckpoint} found. */
export interface Checkpoint {
  /** Every tensor by its stored name, from the one file or from all the shards. */
  readonly tensors: ReadonlyMap<string, StoredTensor>;
  /** The files read: `['model.safetensors']`, or the index and its shards in order. */
  readonly files: readonly string[];
}

const SINGLE = 'model.safetensors';
const INDEX = 'model.safetensors.index.json';
/** Shard names as `save_pretrained` writes them (`model-00001-of-00003.safetensors`), or any plain `.safetensors` name inside the folder. */
const SHARD_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.safetensors$/;

/** The `weight_map` of an index file: tensor name → shard file, checked. */
function weightMap(json: unknown, where: string, caller: string): Map<string, string> {
  const fail = (message: string): never => {
    throw new ModelLoadError(INDEX, `${INDEX} in ${where} ${message}`, undefined, caller);
  };
  const map = typeof json === 'object' && json !== null && !Array.isArray(json) ? new Map(Object.entries(json)).get('weight_map') : undefined;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return fail('has no "weight_map" object (tensor name → shard file), as save_pretrained writes it.');
  const entries = new Map(Object.entries(map as object)); // a Map: a tensor named "__proto__" stays a plain key
  if (entries.size === 0) fail('has an empty "weight_map".');
  for (const [name, shard] of entries) {
    if (typeof shard !== 'string' || !SHARD_NAME.test(shard)) fail(`maps ${JSON.stringify(name.slice(0, 80))} to ${JSON.stringify(shard)?.slice(0, 80)}; a shard is a .safetensors file name inside the folder (no path).`);
  }
  return entries as Map<string, string>;
}

/**
 * Reads the weights of a model folder: `model.safetensors`, or — for a checkpoint saved in shards —
 * `model.safetensors.index.json` and every shard its `weight_map` names, each read once and merged.
 * I8 tensors keep one byte a value (int8 folders). Every problem is a `ModelLoadError` naming the
 * file: neither file (mentioning a `pytorch_model.bin`, which attnkit does not read), a malformed
 * file, an index naming a missing shard or a path, a tensor the index places in one shard but found
 * in another or in none, a tensor in two shards, a shard tensor the index does not list.
 *
 * @example
 * const { tensors } = await readCheckpoint(modelFiles('./Qwen3-0.6B'));
 * tensors.get('model.embed_tokens.weight')?.shape; // [151936, 1024]
 */
export async function readCheckpoint(files: ModelFiles): Promise<Checkpoint> {
  const { where, caller } = checkModelFiles(files, 'readCheckpoint');
  const parse = (name: string, bytes: Uint8Array) => {
    try {
      return readSafetensors(bytes, { keepInt8: true }).tensors; // int8 weights stay one byte a value
    } catch (error) {
      throw new ModelLoadError(name, `${name} in ${where}: ${(error as Error).message}`, error, caller);
    }
  };
  const single = await files.read(SINGLE, { required: true });
  if (single !== undefined) return { tensors: parse(SINGLE, single), files: [SINGLE] };
  const index = await files.json(INDEX, { required: true });
  if (index === undefined) {
    const legacy = (await files.read('pytorch_model.bin')) !== undefined;
    throw new ModelLoadError(SINGLE, `${SINGLE} is missing in ${where}${legacy ? ' (it has pytorch_model.bin: convert it with safetensors\' convert script or save_pretrained(safe_serialization=True))' : ''}.`, undefined, caller);
  }
  const map = weightMap(index, where, caller);
  const shards = [...new Set(map.values())];
  const tensors = new Map<string, StoredTensor>();
  const problems: string[] = [];
  for (const shard of shards) {
    const bytes = await files.read(shard, { required: true });
    if (bytes === undefined) throw new ModelLoadError(shard, `${shard} is missing in ${where} (${INDEX} lists it as a shard).`, undefined, caller);
    for (const [name, tensor] of parse(shard, bytes)) {
      if (tensors.has(name)) problems.push(`${name} is in two shards`);
      else if (map.get(name) !== shard) problems.push(map.has(name) ? `${name} is in ${shard}, but the index places it in ${map.get(name)}` : `${name} is in ${shard}, but the index does not list it`);
      tensors.set(name, tensor);
    }
  }
  for (const name of map.keys()) if (!tensors.has(name)) problems.push(`${name} is in no shard (the index places it in ${map.get(name)})`);
  if (problems.length > 0) throw new ModelLoadError(INDEX, `${INDEX} in ${where} does not match its shards: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}.`, undefined, caller);
  return { tensors, files: [INDEX, ...shards] };
}
