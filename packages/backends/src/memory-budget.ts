import { env, getBackend } from '@tensorflow/tfjs-core';
import { webgpuStorageBufferLimit } from '@attnkit/kernels';
import { describeValue, formatShape, InvalidArgumentError, ResourceLimitError } from '@attnkit/errors';
import { parseBackendName } from './backend-name.js';

const GiB = 2 ** 30;

/** What bounds one operation on a backend: bytes for its working set, and why. */
export interface MemoryBudget {
  readonly backend: string;
  /** Bytes an operation's working set may take (the tensors it holds at once). */
  readonly bytes: number;
  /** Bytes one tensor may take, where the backend bounds single tensors more tightly. */
  readonly tensorBytes: number;
  /** The reason, for messages. */
  readonly rule: string;
}

/**
 * The documented memory budget of a backend, checked before attnkit allocates large tensors:
 * - `wasm`: 2 GiB per operation — the wasm32 heap ends at 4 GiB, and an operation's inputs,
 *   outputs and temporaries share it (a larger request fails inside tfjs or aborts the module);
 * - `cpu`: 2 GiB per operation — JavaScript typed arrays end at 4 GiB, and a tfjs cpu kernel over
 *   billions of floats runs for minutes;
 * - `webgl`: one tensor fits one texture, `WEBGL_MAX_TEXTURE_SIZE`² texels of 4 floats, and 2 GiB
 *   per operation;
 * - `webgpu`: one tensor fits one storage buffer (the device's `maxStorageBufferBindingSize`), and
 *   2 GiB per operation.
 *
 * @example
 * memoryBudget('wasm').bytes; // 2147483648
 */
export function memoryBudget(given?: string): MemoryBudget {
  const backend: string = given === undefined ? getBackend() : parseBackendName(given); // a name given must be one attnkit knows
  if (backend === 'webgl') {
    const side = env().getNumber('WEBGL_MAX_TEXTURE_SIZE');
    return { backend, bytes: 2 * GiB, tensorBytes: side * side * 16, rule: `one tensor per texture of at most ${side}² texels of 4 floats, 2 GiB per operation` };
  }
  if (backend === 'webgpu') {
    const limit = webgpuStorageBufferLimit() ?? 128 * 2 ** 20;
    return { backend, bytes: 2 * GiB, tensorBytes: limit, rule: `one tensor per storage buffer of at most ${limit} bytes, 2 GiB per operation` };
  }
  const rule = backend === 'wasm' ? 'the wasm32 heap ends at 4 GiB; 2 GiB per operation' : '2 GiB per operation';
  return { backend, bytes: 2 * GiB, tensorBytes: 2 * GiB, rule };
}

/**
 * Throws {@link ResourceLimitError} unless `count` float32 tensors of `shape` fit the active
 * backend's {@link memoryBudget}. Call it before allocating: the check costs nothing.
 *
 * @example
 * checkMemoryBudget('scaledDotProductAttention', 'the attention scores', [B, H, T, S], 3);
 */
export function checkMemoryBudget(caller: string, what: string, shape: readonly number[], count = 1, backend?: string, hint?: string): void {
  if (typeof caller !== 'string' || caller === '') throw new InvalidArgumentError({ caller: 'checkMemoryBudget', argument: 'caller', expected: 'the name of the calling function (a non-empty string)', received: describeValue(caller) });
  if (typeof what !== 'string' || what === '') throw new InvalidArgumentError({ caller, argument: 'what', expected: 'what is being allocated, for the message (a non-empty string)', received: describeValue(what) });
  if (!Number.isInteger(count) || count < 1) throw new InvalidArgumentError({ caller, argument: 'count', expected: 'how many such tensors at once (an integer ≥ 1)', received: describeValue(count) });
  if (hint !== undefined && typeof hint !== 'string') throw new InvalidArgumentError({ caller, argument: 'hint', expected: 'a hint for the message (a string)', received: describeValue(hint) });
  // Array.from reads a hole as undefined: refused
  if (!Array.isArray(shape) || Array.from(shape).some((d) => !Number.isInteger(d) || d < 0)) throw new InvalidArgumentError({ caller: typeof caller === 'string' ? caller : 'checkMemoryBudget', argument: 'shape', expected: 'a list of non-negative integers', received: describeValue(shape) });
  const budget = memoryBudget(backend);
  const one = 4 * shape.reduce((a, b) => a * b, 1);
  const described = `${what} ${formatShape(shape)} float32`;
  if (one * count > budget.bytes) throw new ResourceLimitError({ caller, what: count > 1 ? `${described} (${count} at once)` : described, backend: budget.backend, bytes: one * count, limit: budget.bytes, rule: budget.rule, ...(hint === undefined ? {} : { hint }) });
  if (one > budget.tensorBytes) throw new ResourceLimitError({ caller, what: `${described} (one tensor)`, backend: budget.backend, bytes: one, limit: budget.tensorBytes, rule: budget.rule, ...(hint === undefined ? {} : { hint }) });
}
