import type { Tensor } from '@tensorflow/tfjs-core';

/** The longest description {@link describeValue} returns, in characters. */
const MAX_DESCRIPTION = 120;

function isTensorLike(value: unknown): value is Tensor {
  try {
    return typeof value === 'object' && value !== null && 'dataId' in value && 'shape' in value && 'dtype' in value;
  } catch {
    return false; // a Proxy whose `has` trap throws is not a tensor
  }
}

function clip(text: string, limit = MAX_DESCRIPTION): string {
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}

/** A short, never-throwing rendering of one array element (nested arrays and cycles included). */
function describeElement(value: unknown, seen: Set<unknown>, depth: number): string {
  if (Array.isArray(value)) {
    if (seen.has(value)) return '[circular]';
    if (depth > 3) return '[...]';
    seen.add(value);
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; i < value.length && length < MAX_DESCRIPTION; i++) {
      const part = describeElement(value[i], seen, depth + 1);
      parts.push(part);
      length += part.length + 1;
    }
    seen.delete(value);
    return `[${parts.join(',')}${parts.length < value.length ? ',...' : ''}]`;
  }
  if (typeof value === 'string') return JSON.stringify(clip(value, 40));
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function' || typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) return safeString(value);
  return isTensorLike(value) ? 'tensor' : constructorName(value);
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}

function constructorName(value: object): string {
  try {
    const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? clip(name, 60) : 'object';
  } catch {
    return 'object';
  }
}

/**
 * Describes any value the way error messages print what was received: tensors by dtype, rank
 * and shape (`'float32 tensor of rank 2 [2, 5]'`), everything else by type and value. It never
 * throws (circular arrays, symbols, revoked proxies, throwing getters) and its result is at most
 * 120 characters (a shape aside).
 *
 * @example
 * describeValue(tf.zeros([2, 5])); // 'float32 tensor of rank 2 [2, 5]'
 * describeValue([1, 2]);           // 'array [1,2]'
 */
export function describeValue(value: unknown): string {
  try {
    if (isTensorLike(value)) {
      const shape = formatShape(value.shape);
      return value.isDisposed ? `a disposed ${safeString(value.dtype)} tensor ${shape}` : `${safeString(value.dtype)} tensor of rank ${safeString(value.rank)} ${shape}`;
    }
    if (Array.isArray(value)) return clip(`array ${describeElement(value, new Set(), 0)}`);
    if (typeof value === 'number') return `number ${value}`;
    if (typeof value === 'string') return `string '${value.slice(0, 40)}'`;
    if (typeof value === 'boolean') return `boolean ${value}`;
    if (typeof value === 'bigint') return clip(`bigint ${value}n`);
    if (typeof value === 'symbol') return clip(`symbol ${safeString(value.description ?? '')}`.trimEnd());
    if (typeof value === 'function') return 'function';
    if (value === null) return 'null';
    if (value === undefined) return 'undefined';
    return constructorName(value);
  } catch {
    return typeof value; // e.g. a revoked Proxy
  }
}

/** `[2, 5]` for a shape, as every message in attnkit writes shapes. */
export function formatShape(shape: readonly number[]): string {
  try {
    if (!Array.isArray(shape)) return describeValue(shape); // for messages: never throws
    return clip(`[${shape.map((d) => describeElement(d, new Set(), 0)).join(', ')}]`, 200);
  } catch {
    return 'an unreadable shape';
  }
}

export { isTensorLike };
