/**
 * The weights a kernel module keeps between calls (packed panels), one after another in a region
 * of its memory from `start` up, by key (a never-reused `objectKey`/`dataKey`): a bump allocator
 * that forgets an entry once its owner (the weight's data id or values) is garbage-collected and
 * starts the region again, forgetting everything, when it would pass `budget` bytes or when more
 * than half of it belongs to collected weights. Each forgotten weight is packed again on its next
 * use. The region's memory itself is the caller's to grow.
 *
 * @example
 * const kept = new KeptRegion<{ offset: number; bytes: number }>(2 ** 29);
 * kept.restart(base);
 * const offset = kept.reserve(bytes);                 // undefined when bytes > budget
 * if (offset !== undefined) kept.commit(key, owner, { offset, bytes }); // once the panels are written
 */
export class KeptRegion<E extends { readonly bytes: number }> {
  readonly budget: number;
  readonly #entries = new Map<number, E>();
  #start = 0;
  #end = 0;
  #freed = 0;
  #restarts = 0;
  readonly #collected = new FinalizationRegistry<number>((key) => {
    const entry = this.#entries.get(key);
    if (entry === undefined) return; // already forgotten by a restart
    this.#entries.delete(key);
    this.#freed += entry.bytes;
  });

  constructor(budget: number) {
    this.budget = budget;
  }

  /** The first byte after the kept entries (16-aligned): where a call's own buffers may start. */
  get end(): number {
    return this.#end;
  }

  /** How many times the region has started again (each time every entry's place was given up): a caller holding two reservations checks it between them. */
  get restarts(): number {
    return this.#restarts;
  }

  /** Entries kept now and their bytes. */
  get stats(): { readonly count: number; readonly bytes: number } {
    let bytes = 0;
    for (const entry of this.#entries.values()) bytes += entry.bytes;
    return { count: this.#entries.size, bytes };
  }

  /** Forgets every entry and places the region at `start` (16-aligned). */
  restart(start: number): void {
    this.#entries.clear();
    this.#restarts++;
    this.#start = this.#end = Math.ceil(start / 16) * 16;
    this.#freed = 0;
  }

  /** The entry kept under `key`, if any. */
  get(key: number): E | undefined {
    return this.#entries.get(key);
  }

  /**
   * Room for `bytes` at the end of the region (restarting it first when mostly collected, or when
   * over the budget with collected entries to drop): its offset, or undefined when `bytes` alone
   * passes the budget, or would pass it while every entry kept is alive. Then the caller packs for
   * that call only and the entries stay: a model larger than the budget keeps what fits instead of
   * dropping all at each pass over its weights (which made every product pack its weight again).
   */
  reserve(bytes: number): number | undefined {
    if (bytes > this.budget) return undefined;
    const used = this.#end - this.#start;
    if (used + bytes > this.budget && this.#freed === 0) return undefined;
    if (used + bytes > this.budget || this.#freed > used / 2) this.restart(this.#start);
    const offset = this.#end;
    this.#end = Math.ceil((offset + bytes) / 16) * 16;
    return offset;
  }

  /** Keeps `entry` under `key` until `owner` is garbage-collected (call it once the entry's bytes are written). */
  commit(key: number, owner: object, entry: E): void {
    this.#entries.set(key, entry);
    this.#collected.register(owner, key);
  }
}
