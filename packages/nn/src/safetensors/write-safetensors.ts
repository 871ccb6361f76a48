/**
 * Writes float32 tensors as a `.safetensors` file (the inverse of `readSafetensors` for F32),
 * e.g. to save a `MultiHeadAttention`'s weights with PyTorch names.
 *
 * @example
 * const bytes = writeSafetensors({ 'out_proj.bias': { shape: [2], values: Float32Array.of(0, 1) } });
 */
export function writeSafetensors(
  tensors: Readonly<Record<string, { readonly shape: readonly number[]; readonly values: Float32Array }>>,
  metadata: Readonly<Record<string, string>> = {},
): Uint8Array {
  const header = Object.create(null) as Record<string, unknown>; // tensor names such as "__proto__" stay plain keys
  if (Object.keys(metadata).length > 0) header['__metadata__'] = metadata;
  let offset = 0;
  const names = Object.keys(tensors).sort();
  for (const name of names) {
    const { shape, values } = tensors[name]!;
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + values.byteLength] };
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
