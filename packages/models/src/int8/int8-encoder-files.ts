import { checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { int8QuantizationConfig, int8WeightTensors, modelFiles, readCheckpoint, writeSafetensors, type ModelFiles, type ModelSource } from '@attnkit/hub';
import { Int8Linear } from '@attnkit/nn';
import { checkpointKeys } from '../encoder/checkpoint-keys.js';
import { loadEncoder } from '../load/load-encoder.js';

/** Options of {@link int8EncoderFiles}. */
export interface Int8EncoderFilesOptions {
  /** The (initialised) backend the float model is loaded on to quantize it (default: the active one; `cpu` or `wasm`). */
  readonly backend?: string;
  /** Told about what is left out or widened (buffers such as `embeddings.position_ids`; integer tensors that are no buffers, stored as F32). */
  readonly onNotice?: (message: string) => void;
}

const json = (value: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The int8 `config.json` and `model.safetensors` of a float encoder folder: every `Linear` of the
 * encoder (projections, feed-forward layers, pooler) stored as `<linear>.weight` I8 `[out, in]`
 * and `<linear>.weight_scale` F32 `[out, 1]` — the int8 weights `loadEncoder(source, { quantize:
 * 'int8' })` makes, taken from that very model, so loading the int8 folder gives the same layers
 * bit for bit — and config.json with a `compressed-tensors` `quantization_config`
 * (int8 weights per output channel, dynamic int8 activations per token). Everything else keeps its stored name and dtype (F32, F16 or
 * BF16): embeddings, LayerNorm, biases, heads (`cls.*`, listed in `ignore`). The Linear weights
 * take a quarter of their float32 bytes (half of F16's). Buffers (`embeddings.position_ids`) are left out, as every
 * attnkit loader ignores them. A folder that is already int8 is an `InvalidArgumentError`.
 *
 * @example
 * const files = await int8EncoderFiles('./all-MiniLM-L6-v2'); // Map { 'config.json' => bytes, 'model.safetensors' => bytes }
 * await loadEncoder({ files: Object.fromEntries(files) }); // an int8 model, no float weight read
 */
export async function int8EncoderFiles(source: ModelSource | ModelFiles, options: Int8EncoderFilesOptions = {}): Promise<Map<string, Uint8Array>> {
  const caller = 'int8EncoderFiles';
  checkObject(options, { caller, argument: 'options', expected: 'an object { backend?, onNotice? }' });
  const { backend, onNotice } = checkOptionKeys(options, ['backend', 'onNotice'], caller);
  if (onNotice !== undefined && typeof onNotice !== 'function') throw new InvalidArgumentError({ caller, argument: 'onNotice', expected: 'a function (message) => void', received: describeValue(onNotice) });
  const files = modelFiles(source, { caller }); // each file read once: by loadEncoder, then here
  // the model quantize: 'int8' gives (which checks the folder): its Int8Linear weights are what the folder stores
  const model = await loadEncoder(files, { quantize: 'int8', ...(backend === undefined ? {} : { backend }) });
  const int8 = new Map(model.namedModules().filter((entry): entry is [string, Int8Linear] => entry[1] instanceof Int8Linear).map(([path, layer]) => [`${path}.weight` as string, layer.weight] as const));
  const modelType = model.config.modelType;
  model.dispose(); // the Int8Weight arrays are plain JS memory, kept
  const where = files.where;
  const config = (await files.json('config.json', { required: true })) as Record<string, unknown>; // loadEncoder read and checked both
  const { tensors } = await readCheckpoint(files);
  if (config['quantization_config'] !== undefined || [...tensors.values()].some((t) => t.dtype === 'I8')) {
    throw new InvalidArgumentError({ caller, argument: 'source', expected: 'a float32 encoder folder', received: `${where}, which is already quantized (${config['quantization_config'] === undefined ? 'I8 tensors' : 'config.json has a quantization_config'})`, hint: 'Load it with loadEncoder: it is an int8 model as it is.' });
  }
  const { keys, skipped, buffers } = checkpointKeys(tensors.keys(), modelType);
  const out = Object.create(null) as Record<string, { readonly shape: readonly number[]; readonly values: Float32Array | Int8Array; readonly dtype?: 'F32' | 'F16' | 'BF16' }>; // a tensor named "__proto__" stays a name
  const widened: string[] = [];
  for (const [name, entry] of tensors) {
    if (buffers.includes(name)) continue;
    const weight = int8.get(keys.get(name) ?? '');
    if (weight !== undefined) {
      Object.assign(out, int8WeightTensors(name, weight));
      continue;
    }
    if (entry.values instanceof Float32Array) out[name] = { shape: entry.shape, values: entry.values, dtype: entry.dtype as 'F32' | 'F16' | 'BF16' }; // F16 / BF16 narrowed back exactly
    else {
      widened.push(name);
      out[name] = { shape: entry.shape, values: Float32Array.from(entry.values) };
    }
  }
  if (buffers.length > 0) onNotice?.(`${caller}: left out ${buffers.join(', ')} (buffers, not weights; attnkit and transformers recompute them).`);
  if (widened.length > 0) onNotice?.(`${caller}: ${widened.length} integer tensors that are no buffers (${widened.slice(0, 3).join(', ')}${widened.length > 3 ? ', ...' : ''}) are stored as F32, as attnkit loads them.`);
  const ignore = skipped.filter((name) => name.endsWith('.weight') && tensors.get(name)!.shape.length === 2).map((name) => name.slice(0, -'.weight'.length)); // head Linears (and tied decoders) left float
  return new Map([
    ['config.json', json({ ...config, quantization_config: int8QuantizationConfig(ignore) })],
    ['model.safetensors', writeSafetensors(out, { format: 'pt' })],
  ]);
}
