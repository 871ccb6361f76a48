import { checkBoolean, checkInteger, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { SafetensorsError } from './safetensors-error.js';
import { decodeHalf } from './decode-float.js';

/**
 * One tensor read from a safetensors file, widened to float32 (or int32 for integer dtypes). `V` is
 * the type of its values: `Float32Array | Int32Array`, plus `Int8Array` when the file is read with
 * `keepInt8: true` (then I8 tensors keep their bytes instead of being widened to int32).
 */
export interface SafetensorsEntry<V extends Float32Array | Int32Array | Int8Array = Float32Array | Int32Array> {
  /** The dtype stored in the file. */
  readonly dtype: 'F32' | 'F16' | 'BF16' | 'I32' | 'I64' | 'I8';
  readonly shape: readonly number[];
  readonly values: V;
}

/** What {@link readSafetensors} returns. */
export interface SafetensorsFile<V extends Float32Array | Int32Array | Int8Array = Float32Array | Int32Array> {
  readonly tensors: ReadonlyMap<string, SafetensorsEntry<V>>;
  readonly metadata: Readonly<Record<string, string>>;
}

/** Options of {@link readSafetensors}. */
export interface ReadSafetensorsOptions {
  /** Bound on the JSON header in bytes (default {@link MAX_HEADER_BYTES}). */
  readonly maxHeaderBytes?: number;
  /** Give I8 tensors as `Int8Array`, one byte a value (default false: widened to `Int32Array`, as every integer dtype). */
  readonly keepInt8?: boolean;
}

const BYTES = { F32: 4, F16: 2, BF16: 2, I32: 4, I64: 8, I8: 1 } as const;
/** Default bound on the JSON header (the reference implementation uses 100 MB). */
export const MAX_HEADER_BYTES = 100_000_000;

/**
 * Reads a `.safetensors` file: an 8-byte little-endian header size, a JSON header, then the data.
 * Everything is checked before any tensor is decoded — header size bounded, dtypes known, byte
 * sizes matching shapes, offsets in range, ordered, non-overlapping and without holes — so a
 * truncated or lying file gives a {@link SafetensorsError}, never garbage, a hang or a huge
 * allocation. F16 and BF16 are widened to float32; I64 must fit in int32; I8 is widened to int32,
 * or kept as `Int8Array` with `keepInt8: true` (int8 weights, a quarter of their float32 size).
 *
 * @example
 * const { tensors } = readSafetensors(new Uint8Array(await file.arrayBuffer()));
 * tensors.get('out_proj.weight')?.shape; // [12, 12]
 * readSafetensors(bytes, { keepInt8: true }).tensors.get('dense.weight')?.values; // Int8Array [out · in] for an I8 tensor
 */
export function readSafetensors(input: ArrayBufferView | ArrayBuffer | SharedArrayBuffer, options: ReadSafetensorsOptions & { readonly keepInt8: true }): SafetensorsFile<Float32Array | Int32Array | Int8Array>;
export function readSafetensors(input: ArrayBufferView | ArrayBuffer | SharedArrayBuffer, options?: ReadSafetensorsOptions & { readonly keepInt8?: false }): SafetensorsFile; // last: what ReturnType<typeof readSafetensors> gives
export function readSafetensors(input: ArrayBufferView | ArrayBuffer | SharedArrayBuffer, options: ReadSafetensorsOptions = {}): SafetensorsFile<Float32Array | Int32Array | Int8Array> {
  // a plain Uint8Array view: a Node Buffer's slice() would alias (and misalign) the caller's memory;
  // a SharedArrayBuffer is copied out by slice() below like any other buffer
  // any view (Uint8Array, Node Buffer, DataView, another typed array) is read as its bytes
  const isBuffer = input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && (input as unknown) instanceof SharedArrayBuffer);
  if (!ArrayBuffer.isView(input) && !isBuffer) {
    throw new InvalidArgumentError({ caller: 'readSafetensors', argument: 'input', expected: 'the file as bytes: a Uint8Array (a Node Buffer), another ArrayBuffer view, an ArrayBuffer or a SharedArrayBuffer', received: describeValue(input) });
  }
  checkOptionKeys(options, ['maxHeaderBytes', 'keepInt8'], 'readSafetensors');
  const bytes = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
  if (bytes.length < 8) throw new SafetensorsError('truncated', `the file has ${bytes.length} bytes; at least 8 are needed for the header size.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = Number(view.getBigUint64(0, true));
  const limit = options.maxHeaderBytes === undefined ? MAX_HEADER_BYTES : checkInteger(options.maxHeaderBytes, { caller: 'readSafetensors', argument: 'maxHeaderBytes', min: 1 });
  const keepInt8 = checkBoolean(options.keepInt8, { caller: 'readSafetensors', argument: 'keepInt8', fallback: false });
  if (headerSize > limit) throw new SafetensorsError('header', `the header claims ${headerSize} bytes, more than the ${limit} allowed.`);
  if (8 + headerSize > bytes.length) {
    throw new SafetensorsError('truncated', `the header claims ${headerSize} bytes but only ${bytes.length - 8} follow the size field.`);
  }
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerSize)));
  } catch (error) {
    throw new SafetensorsError('header', `the header is not valid UTF-8 JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw new SafetensorsError('header', 'the header must be a JSON object of tensor names.');
  }
  const dataStart = 8 + headerSize;
  const dataLength = bytes.length - dataStart;
  const metadata: Record<string, string> = Object.create(null) as Record<string, string>;
  const layout: Array<{ name: string; dtype: SafetensorsEntry['dtype']; shape: number[]; begin: number; end: number }> = [];
  for (const [name, spec] of Object.entries(header)) {
    if (name === '__metadata__') {
      if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw new SafetensorsError('header', "'__metadata__' must be an object of strings.");
      for (const [k, v] of Object.entries(spec)) {
        // the format's metadata is string to string; the reference reader refuses anything else, so nothing is dropped silently
        if (typeof v !== 'string') throw new SafetensorsError('header', `'__metadata__' must be an object of strings; its entry ${JSON.stringify(k.slice(0, 80))} is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v}.`);
        metadata[k] = v;
      }
      continue;
    }
    const { dtype, shape, data_offsets: offsets } = (spec ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof dtype !== 'string' || !Object.hasOwn(BYTES, dtype)) {
      throw new SafetensorsError('dtype', `tensor '${name}' has dtype ${JSON.stringify(dtype)}; attnkit reads ${Object.keys(BYTES).join(', ')}.`);
    }
    if (!Array.isArray(shape) || !shape.every((s) => Number.isSafeInteger(s) && s >= 0)) {
      throw new SafetensorsError('shape', `tensor '${name}' has shape ${JSON.stringify(shape)}; expected a list of non-negative integers.`);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0) || offsets[1] < offsets[0]) {
      throw new SafetensorsError('offsets', `tensor '${name}' has data_offsets ${JSON.stringify(offsets)}; expected [begin, end] with 0 ≤ begin ≤ end.`);
    }
    const [begin, end] = offsets as [number, number];
    const expected = shape.reduce((n: number, s: number) => n * s, 1) * BYTES[dtype as keyof typeof BYTES];
    if (end - begin !== expected) {
      throw new SafetensorsError('shape', `tensor '${name}' (${dtype} [${shape.join(', ')}]) needs ${expected} bytes but its offsets span ${end - begin}.`);
    }
    if (end > dataLength) throw new SafetensorsError('offsets', `tensor '${name}' ends at byte ${end} but the data section has ${dataLength} bytes.`);
    layout.push({ name, dtype: dtype as SafetensorsEntry['dtype'], shape: shape as number[], begin, end });
  }
  layout.sort((a, b) => a.begin - b.begin || a.end - b.end);
  let cursor = 0;
  for (const entry of layout) {
    if (entry.begin < cursor) throw new SafetensorsError('offsets', `tensor '${entry.name}' starts at byte ${entry.begin}, inside the previous tensor (which ends at ${cursor}).`);
    if (entry.begin > cursor) throw new SafetensorsError('offsets', `bytes ${cursor}..${entry.begin} of the data section belong to no tensor (the format allows no holes).`);
    cursor = entry.end;
  }
  if (cursor !== dataLength) throw new SafetensorsError('offsets', `the data section has ${dataLength} bytes but the tensors cover ${cursor}.`);
  const tensors = new Map<string, SafetensorsEntry<Float32Array | Int32Array | Int8Array>>();
  for (const { name, dtype, shape, begin, end } of layout) {
    const raw = bytes.slice(dataStart + begin, dataStart + end); // copy: aligned, independent of the input
    tensors.set(name, { dtype, shape, values: decode(raw, dtype, name, keepInt8) });
  }
  return { tensors, metadata };
}

function decode(raw: Uint8Array, dtype: SafetensorsEntry['dtype'], name: string, keepInt8: boolean): Float32Array | Int32Array | Int8Array {
  switch (dtype) {
    case 'F32':
      return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    case 'F16':
    case 'BF16':
      return decodeHalf(raw, dtype);
    case 'I32':
      return new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    case 'I8': {
      const values = new Int8Array(raw.buffer, raw.byteOffset, raw.byteLength);
      return keepInt8 ? values : Int32Array.from(values);
    }
    case 'I64': {
      const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      const out = new Int32Array(raw.byteLength / 8);
      for (let i = 0; i < out.length; i++) {
        const v = view.getBigInt64(8 * i, true);
        if (v > 2147483647n || v < -2147483648n) throw new SafetensorsError('dtype', `tensor '${name}' holds ${v}, which does not fit int32.`);
        out[i] = Number(v);
      }
      return out;
    }
  }
}
