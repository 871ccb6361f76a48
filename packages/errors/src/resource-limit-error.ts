import { InvalidArgumentError } from './invalid-argument-error.js';
import { describeValue } from './validate/index.js';
import { AttnkitError } from './attnkit-error.js';
import { messageText } from './message-text.js';

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
  /** Bytes the operation needs (NaN when it was built without a number). */
  readonly bytes: number;
  /** The backend's budget in bytes (NaN when it was built without a number). */
  readonly limit: number;

  constructor(details: { caller: string; what: string; backend: string; bytes: number; limit: number; rule: string; hint?: string }) {
    // built from whatever it is given (every part made text, a size that is no number described), so reporting never throws
    const given: Partial<typeof details> = typeof details === 'object' && details !== null ? details : {};
    const size = (value: unknown) => (typeof value === 'number' && value >= 0 ? formatBytes(value) : messageText(value));
    const [caller, backend] = [messageText(given.caller), messageText(given.backend)];
    super(
      'ATTNKIT_RESOURCE_LIMIT',
      `${caller}: ${messageText(given.what)} need ${size(given.bytes)}, more than the ${size(given.limit)} ${backend} allows (${messageText(given.rule)}). ${given.hint === undefined ? 'Split the work: shorter sequences, fewer heads, or smaller batches.' : messageText(given.hint)}`,
    );
    this.caller = caller;
    this.backend = backend;
    this.bytes = typeof given.bytes === 'number' ? given.bytes : NaN;
    this.limit = typeof given.limit === 'number' ? given.limit : NaN;
  }
}
