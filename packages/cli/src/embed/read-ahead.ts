/** What {@link readAhead} read: the items read so far, whether the source ended there, and every item to go on with. */
export interface ReadAhead<T> {
  /** The items read ahead, in order (those `counts` passes over included). */
  readonly ahead: readonly T[];
  /** How many of `ahead` count. */
  readonly counted: number;
  /** Whether the source has no more items than `ahead`. */
  readonly ended: boolean;
  /** Every item of the source, `ahead` first, then the rest as it streams (iterate once; leaving the loop early closes the source). */
  readonly all: AsyncIterable<T>;
  /** Closes the source (its file) when `all` is not read to its end; harmless otherwise. */
  readonly close: () => Promise<void>;
}

/**
 * Reads a stream ahead until more than `limit` of its items count (or it ends), so a caller can tell
 * an empty or a small input from a large one before it commits to how to process it, and then
 * process every item, the ones read ahead first. At most `limit` + 1 counted items (and the items
 * between them) are held in memory.
 *
 * @example
 * const { ended, counted, all } = await readAhead(readRecords('corpus.txt', { format: 'text' }), 1000);
 * if (ended && counted === 0) throw new Error('no texts');
 * for await (const record of all) console.log(record.text);
 */
export async function readAhead<T>(source: AsyncIterable<T>, limit: number, counts: (item: T) => boolean = () => true): Promise<ReadAhead<T>> {
  const iterator = source[Symbol.asyncIterator]();
  const ahead: T[] = [];
  let counted = 0;
  let ended = false;
  while (counted <= limit) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    ahead.push(next.value);
    if (counts(next.value)) counted++;
  }
  const close = async () => void (await iterator.return?.());
  async function* all(): AsyncGenerator<T> {
    try {
      yield* ahead;
      if (ended) return;
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
    } finally {
      await close();
    }
  }
  return { ahead, counted, ended, all: all(), close };
}
