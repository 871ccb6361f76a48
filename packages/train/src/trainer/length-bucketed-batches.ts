import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { seededRandom, shuffled } from './seeded-random.js';

/** Options of {@link lengthBucketedBatches}. */
export interface LengthBucketedBatchesOptions {
  /** Examples per batch (the last batch may be shorter, as `drop_last=False`). */
  readonly batchSize: number;
  /** The run's seed; with `epoch` it fixes the order. */
  readonly seed: number;
  readonly epoch: number;
  /** The length in tokens of each example (its longest text). */
  readonly lengths: readonly number[];
  /** Each example's texts: when given, no text appears twice in a batch (sentence-transformers' `NoDuplicatesBatchSampler`). */
  readonly texts?: ReadonlyArray<readonly string[]>;
  /** Batches per sorting window (default 50). */
  readonly windowBatches?: number;
}

/**
 * One epoch's batches, as lists of example indices: the examples shuffled (seeded by `seed` and
 * `epoch`), sorted by token length within windows of `windowBatches · batchSize` examples so a
 * batch holds texts of similar length (less padding), cut into batches, and the batch order
 * shuffled again so lengths do not run from short to long through the epoch.
 *
 * With `texts`, batches are filled as sentence-transformers' `NoDuplicatesBatchSampler` does: an
 * example sharing a text with the batch being filled waits for a later batch (in-batch negatives
 * must not be copies of the positive). Examples left over in a window move to the next one, so only
 * the epoch's last batch (or one with unavoidable duplicates) is short.
 *
 * @example
 * lengthBucketedBatches(100, { batchSize: 16, seed: 42, epoch: 0, lengths }); // 7 batches of indices
 */
export function lengthBucketedBatches(count: number, options: LengthBucketedBatchesOptions): number[][] {
  checkInteger(count, { caller: 'lengthBucketedBatches', argument: 'count', min: 0 });
  checkObject(options, { caller: 'lengthBucketedBatches', argument: 'options', expected: 'an object { batchSize, seed, epoch, lengths, texts?, windowBatches? }' });
  const caller = 'lengthBucketedBatches';
  checkOptionKeys(options, ['batchSize', 'seed', 'epoch', 'lengths', 'texts', 'windowBatches'], caller);
  const { seed, lengths, texts } = options;
  const batchSize = checkInteger(options.batchSize, { caller, argument: 'batchSize', min: 1 });
  checkInteger(seed, { caller, argument: 'seed', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
  const epoch = checkInteger(options.epoch, { caller, argument: 'epoch', min: 0 });
  const windowBatches = options.windowBatches === undefined ? 50 : checkInteger(options.windowBatches, { caller, argument: 'windowBatches', min: 1 });
  if (!Array.isArray(lengths) || lengths.length !== count || !Array.from(lengths as unknown[]).every((n) => typeof n === 'number' && Number.isFinite(n))) throw new InvalidArgumentError({ caller, argument: 'lengths', expected: `the token length of each of the ${count} examples (finite numbers)`, received: describeValue(lengths) });
  if (texts !== undefined && (!Array.isArray(texts) || texts.length !== count || !Array.from(texts as unknown[]).every((t) => Array.isArray(t) && Array.from(t as unknown[]).every((x) => typeof x === 'string')))) {
    throw new InvalidArgumentError({ caller, argument: 'texts', expected: `the texts of each of the ${count} examples (lists of strings) or undefined`, received: describeValue(texts) });
  }
  const random = seededRandom(seed, 0x6f726472, epoch); // 'ordr'
  const order = shuffled(Array.from({ length: count }, (_, i) => i), random);
  const window = Math.max(1, windowBatches) * batchSize;
  const batches: number[][] = [];
  let carried: number[] = [];
  for (let start = 0; start < count; start += window) {
    const last = start + window >= count;
    const sorted = [...carried, ...order.slice(start, start + window)].sort((x, y) => (lengths[x] as number) - (lengths[y] as number));
    carried = [];
    let remaining = sorted;
    while (remaining.length > 0) {
      const batch = texts === undefined ? remaining.slice(0, batchSize) : fillWithoutDuplicates(remaining, texts, batchSize);
      if (batch.length < batchSize && !last) {
        carried = remaining; // not enough distinct examples left here: they join the next window
        break;
      }
      batches.push(batch);
      const taken = new Set(batch);
      remaining = remaining.filter((i) => !taken.has(i));
    }
  }
  return shuffled(batches, random);
}

/** The first examples of `candidates`, in order, up to `batchSize`, skipping any that shares a text with those taken. */
function fillWithoutDuplicates(candidates: readonly number[], texts: ReadonlyArray<readonly string[]>, batchSize: number): number[] {
  const seen = new Set<string>();
  const batch: number[] = [];
  for (const index of candidates) {
    const own = texts[index] as readonly string[];
    if (own.some((text) => seen.has(text))) continue;
    batch.push(index);
    if (batch.length === batchSize) break;
    for (const text of own) seen.add(text);
  }
  return batch;
}
