import { InvalidArgumentError } from './invalid-argument-error.js';
import { describeValue } from './validate/index.js';
import { AttnkitError } from './attnkit-error.js';

/** Bytes as a short figure in binary units: `'17.9 GiB'`, `'512.0 MiB'`. */
export function formatBytes(bytes: number): string {
  if (typeof bytes !== 'number' || !(bytes >= 0)) throw new InvalidArgumentError({ caller: 'formatBytes', argument: 'bytes', expected: 'a number of bytes ≥ 0', received: describeValue(bytes) });
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return `${Math.ceil(bytes / 2 ** 10)} KiB`;
}

/**
 * An operation would need more memory than the backend's budget (see `memoryBudget`), so it is
 * refused before anything is allocated — instead of running for minutes, failing deep inside a
 * kernel, or taking the process down with the wasm heap.
 *
 * @example
 * scaledDotProductAttention(q, k, v); // T = S = 40 000:
 * // ResourceLimitError: scaledDotProductAttention: the attention scores [1, 1, 40000, 40000] float32 (3 at once) need 17.9 GiB ...
 */
export class ResourceLimitError extends AttnkitError {
  readonly caller: string;
  readonly backend: string;
  /** Bytes the operation needs. */
  readonly bytes: number;
  /** The backend's budget in bytes. */
  readonly limit: number;

  constructor(details: { caller: string; what: string; backend: string; bytes: number; limit: number; rule: string; hint?: string }) {
    super(
      'ATTNKIT_RESOURCE_LIMIT',
      `${details.caller}: ${details.what} need ${formatBytes(details.bytes)}, more than the ${formatBytes(details.limit)} ${details.backend} allows (${details.rule}). ${details.hint ?? 'Split the work: shorter sequences, fewer heads, or smaller batches.'}`,
    );
    this.caller = details.caller;
    this.backend = details.backend;
    this.bytes = details.bytes;
    this.limit = details.limit;
  }
}
