import { SafetensorsError } from './safetensors-error.js';

/**
 * Writes tensors as a `.safetensors` file (the inverse of `readSafetensors` for F32 and I8): a
 * `Float32Array` is stored as F32, an `Int8Array` as I8 (int8 weights, one byte a value), e.g. to
 * save a `MultiHeadAttention`'s weights with PyTorch names. It never writes a file its reader
 * refuses: a tensor named `__metadata__` or `''`, values that are neither a `Float32Array` nor an
 * `Int8Array`, a shape that is not non-negative integers or does not match the values, or
 * non-string metadata is a `SafetensorsError`.
 *
 * @example
 * const bytes = writeSafetensors({ 'out_proj.bias': { shape: [2], values: Float32Array.of(0, 1) } });
 * writeSafetensors({ 'dense.weight': { shape: [2, 2], values: Int8Array.of(127, -3, 0, 5) } }); // dtype I8
 */
export function writeSafetensors(
  tensors: Readonly<Record<string, { readonly shape: readonly number[]; readonly values: Float32Array | Int8Array }>>,
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
    const size = tensor.shape.reduce((a, b) => a * b, 1);
    if (size !== tensor.values.length) fail('shape', `tensor ${shown} has shape [${tensor.shape.join(', ')}] (${size} values) but holds ${tensor.values.length}.`);
  }
  for (const [key, value] of Object.entries(metadata)) if (typeof value !== 'string') fail('header', `metadata ${JSON.stringify(key)} must be a string; received ${typeof value}.`);
  const header = Object.create(null) as Record<string, unknown>; // tensor names such as "__proto__" stay plain keys
  if (Object.keys(metadata).length > 0) header['__metadata__'] = metadata;
  let offset = 0;
  const names = Object.keys(tensors).sort();
  for (const name of names) {
    const { shape, values } = tensors[name]!;
    header[name] = { dtype: values instanceof Int8Array ? 'I8' : 'F32', shape, data_offsets: [offset, offset + values.byteLength] };
    offset += values.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8); // pad so the data starts 8-byte aligned
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let cursor = 8 + headerBytes.length;
  for (const name of names) {
    const { values } = tensors[name]!;
    out.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), cursor);
    cursor += values.byteLength;
  }
  return out;
}
