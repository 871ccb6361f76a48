import { encodeHalf } from './encode-half.js';
import { SafetensorsError } from './safetensors-error.js';

const HALF: ReadonlySet<unknown> = new Set(['F16', 'BF16']);

/**
 * Writes tensors as a `.safetensors` file (the inverse of `readSafetensors` for F32, F16, BF16 and
 * I8): a `Float32Array` is stored as F32, or narrowed to F16 / BF16 with `dtype: 'F16'` /
 * `'BF16'` (round to nearest even: exact for values `readSafetensors` widened from that dtype); an
 * `Int8Array` as I8 (int8 weights, one byte a value). E.g. to save a `MultiHeadAttention`'s
 * weights with PyTorch names. It never writes a file its reader refuses: a tensor named
 * `__metadata__` or `''`, values that are neither a `Float32Array` nor an `Int8Array`, a `dtype`
 * that does not fit its values, a shape that is not non-negative integers or does not match the
 * values, or non-string metadata is a `SafetensorsError`.
 *
 * @example
 * const bytes = writeSafetensors({ 'out_proj.bias': { shape: [2], values: Float32Array.of(0, 1) } });
 * writeSafetensors({ 'dense.weight': { shape: [2, 2], values: Int8Array.of(127, -3, 0, 5) } }); // dtype I8
 * writeSafetensors({ 'embeddings.weight': { shape: [1, 2], values: Float32Array.of(0.5, 1), dtype: 'F16' } }); // 2 bytes a value
 */
export function writeSafetensors(
  tensors: Readonly<Record<string, { readonly shape: readonly number[]; readonly values: Float32Array | Int8Array; readonly dtype?: 'F32' | 'F16' | 'BF16' | 'I8' }>>,
  metadata: Readonly<Record<string, string>> = {},
): Uint8Array {
  if (typeof tensors !== 'object' || tensors === null || Array.isArray(tensors)) throw new SafetensorsError('header', `writeSafetensors: 'tensors' must be an object of name → { shape, values }; received ${tensors === null ? 'null' : Array.isArray(tensors) ? 'a list' : typeof tensors}.`);
  if (typeof metadata !== 'object' || metadata === null) throw new SafetensorsError('header', 'writeSafetensors: \'metadata\' must be an object of strings.');
  const fail = (reason: SafetensorsError['reason'], message: string): never => {
    throw new SafetensorsError(reason, `writeSafetensors: ${message}`);
  };
  for (const [name, tensor] of Object.entries(tensors)) {
    const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
    if (name === '__metadata__' || name === '') fail('header', `a tensor cannot be named ${shown} (the format reserves "__metadata__"; names are non-empty).`);
    if (!(tensor?.values instanceof Float32Array || tensor?.values instanceof Int8Array)) fail('dtype', `tensor ${shown} must hold a Float32Array (F32) or an Int8Array (I8); received ${tensor?.values === undefined ? 'no values' : Object.prototype.toString.call(tensor.values)}.`);
    if (!Array.isArray(tensor.shape) || !tensor.shape.every((s) => Number.isSafeInteger(s) && s >= 0)) fail('shape', `tensor ${shown} has shape ${JSON.stringify(tensor.shape)?.slice(0, 80)}; expected a list of non-negative integers.`);
    const dtype = tensor.dtype ?? (tensor.values instanceof Int8Array ? 'I8' : 'F32');
    if ((tensor.values instanceof Int8Array) !== (dtype === 'I8') || !(dtype === 'F32' || dtype === 'I8' || HALF.has(dtype))) fail('dtype', `tensor ${shown} has dtype ${JSON.stringify(dtype)?.slice(0, 40)}; an Int8Array is stored as "I8", a Float32Array as "F32", "F16" or "BF16".`);
    const size = tensor.shape.reduce((a, b) => a * b, 1);
    if (size !== tensor.values.length) fail('shape', `tensor ${shown} has shape [${tensor.shape.join(', ')}] (${size} values) but holds ${tensor.values.length}.`);
  }
  for (const [key, value] of Object.entries(metadata)) if (typeof value !== 'string') fail('header', `metadata ${JSON.stringify(key)} must be a string; received ${typeof value}.`);
  const header = Object.create(null) as Record<string, unknown>; // tensor names such as "__proto__" stay plain keys
  if (Object.keys(metadata).length > 0) header['__metadata__'] = metadata;
  let offset = 0;
  const names = Object.keys(tensors).sort();
  const data = new Map<string, Uint8Array>(); // each tensor's bytes as stored
  for (const name of names) {
    const { shape, values, dtype } = tensors[name]!;
    const bytes = HALF.has(dtype) ? encodeHalf(values as Float32Array, dtype as 'F16' | 'BF16') : new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    data.set(name, bytes);
    header[name] = { dtype: dtype ?? (values instanceof Int8Array ? 'I8' : 'F32'), shape, data_offsets: [offset, offset + bytes.byteLength] };
    offset += bytes.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8); // pad so the data starts 8-byte aligned
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let cursor = 8 + headerBytes.length;
  for (const name of names) {
    const bytes = data.get(name)!;
    out.set(bytes, cursor);
    cursor += bytes.byteLength;
  }
  return out;
}
