import { MissingUnknownToken, vocabularyMaps, type Token, type TokenizerModel } from './tokenizer-model.js';

/** The options of a tokenizer.json `BPE` model (with `dropout` null or 0: deterministic). */
export interface BpeOptions {
  readonly vocab: Record<string, unknown>;
  /** `[left, right]` pairs in rank order; left, right and their merge (right without the prefix) must be in the vocabulary. */
  readonly merges: ReadonlyArray<readonly [string, string]>;
  readonly unkToken: string | null;
  readonly continuingSubwordPrefix: string | null;
  readonly endOfWordSuffix: string | null;
  readonly fuseUnk: boolean;
  readonly byteFallback: boolean;
  readonly ignoreMerges: boolean;
}

interface Merge {
  readonly rank: number;
  readonly pos: number;
  readonly id: number;
}

/** Pops merges lowest rank first, then leftmost (the library's merge queue). */
class MergeQueue {
  readonly #heap: Merge[] = [];
  get size(): number {
    return this.#heap.length;
  }
  #less(a: Merge, b: Merge): boolean {
    return a.rank < b.rank || (a.rank === b.rank && a.pos < b.pos);
  }
  push(merge: Merge): void {
    const heap = this.#heap;
    heap.push(merge);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.#less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }
  pop(): Merge {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let best = i;
        if (l < heap.length && this.#less(heap[l]!, heap[best]!)) best = l;
        if (r < heap.length && this.#less(heap[r]!, heap[best]!)) best = r;
        if (best === i) break;
        [heap[i], heap[best]] = [heap[best]!, heap[i]!];
        i = best;
      }
    }
    return top;
  }
}

const CACHE_CAPACITY = 10_000;
const encoder = new TextEncoder();

/**
 * The BPE model of the Rust `tokenizers` library: each character of a word is a symbol (written with
 * `continuingSubwordPrefix` after the first and `endOfWordSuffix` on the last); a character outside
 * the vocabulary becomes its `<0xXX>` byte tokens (`byteFallback`, when all are there), else the
 * unknown token (consecutive ones fused with `fuseUnk`), else is dropped; then the lowest-ranked
 * mergeable pair, leftmost first, is merged until none is left. With `ignoreMerges`, a word that is
 * in the vocabulary is one token.
 *
 * @example
 * bpe({ vocab: { a: 0, b: 1, ab: 2 }, merges: [['a', 'b']], unkToken: null, continuingSubwordPrefix: null, endOfWordSuffix: null, fuseUnk: false, byteFallback: false, ignoreMerges: false }).tokenize('abb'); // ab, b
 */
export function bpe(options: BpeOptions): TokenizerModel {
  const { ids, tokens } = vocabularyMaps(options.vocab);
  const prefix = options.continuingSubwordPrefix;
  const suffix = options.endOfWordSuffix;
  const merges = new Map<number, Map<number, readonly [number, number]>>();
  options.merges.forEach(([a, b], rank) => {
    const [left, right, merged] = [ids.get(a), ids.get(b), ids.get(a + b.slice(prefix?.length ?? 0))];
    if (left === undefined || right === undefined || merged === undefined) return; // checked by the caller
    let inner = merges.get(left);
    if (inner === undefined) merges.set(left, (inner = new Map()));
    inner.set(right, [rank, merged]);
  });
  const mergeOf = (left: number, right: number) => merges.get(left)?.get(right);
  const cache = new Map<string, Token[]>();

  const mergeWord = (word: string): Token[] => {
    const chars = [...word];
    const symbols: { c: number; prev: number; next: number; removed: boolean }[] = [];
    const add = (c: number) => {
      const last = symbols.at(-1);
      if (last !== undefined) last.next = symbols.length;
      symbols.push({ c, prev: symbols.length - 1, next: -1, removed: false });
    };
    let unknown: number | undefined;
    chars.forEach((char, i) => {
      let piece = i > 0 && prefix !== null ? prefix + char : char;
      if (i === chars.length - 1 && suffix !== null) piece += suffix;
      const id = ids.get(piece);
      if (id !== undefined) {
        if (unknown !== undefined) add(unknown);
        unknown = undefined;
        add(id);
        return;
      }
      if (options.byteFallback) {
        const bytes = Array.from(encoder.encode(piece), (b) => ids.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`));
        if (bytes.every((b) => b !== undefined)) {
          bytes.forEach((b) => add(b as number)); // before a pending unknown token, as the library adds them
          return;
        }
      }
      if (options.unkToken === null) return;
      const unk = ids.get(options.unkToken);
      if (unk === undefined) throw new MissingUnknownToken(word);
      if (unknown !== undefined && !options.fuseUnk) add(unknown);
      unknown = unk;
    });
    if (unknown !== undefined) add(unknown);

    const queue = new MergeQueue();
    for (let pos = 0; pos + 1 < symbols.length; pos++) {
      const merge = mergeOf(symbols[pos]!.c, symbols[pos + 1]!.c);
      if (merge !== undefined) queue.push({ rank: merge[0], pos, id: merge[1] });
    }
    while (queue.size > 0) {
      const top = queue.pop();
      const current = symbols[top.pos]!;
      if (current.removed || current.next === -1) continue;
      const right = symbols[current.next]!;
      if (mergeOf(current.c, right.c)?.[1] !== top.id) continue; // an outdated entry
      current.c = top.id;
      right.removed = true;
      current.next = right.next;
      if (right.next !== -1) symbols[right.next]!.prev = top.pos;
      if (current.prev >= 0) {
        const merge = mergeOf(symbols[current.prev]!.c, current.c);
        if (merge !== undefined) queue.push({ rank: merge[0], pos: current.prev, id: merge[1] });
      }
      if (current.next !== -1) {
        const merge = mergeOf(current.c, symbols[current.next]!.c);
        if (merge !== undefined) queue.push({ rank: merge[0], pos: top.pos, id: merge[1] });
      }
    }
    return symbols.filter((s) => !s.removed).map((s) => ({ id: s.c, token: tokens.get(s.c) ?? '' }));
  };

  return {
    size: ids.size,
    tokenToId: (token) => ids.get(token),
    idToToken: (id) => tokens.get(id),
    tokenize(word) {
      if (word === '') return [];
      if (options.ignoreMerges) {
        const id = ids.get(word);
        if (id !== undefined) return [{ id, token: word }];
      }
      let result = cache.get(word);
      if (result === undefined) {
        result = mergeWord(word);
        if (cache.size < CACHE_CAPACITY) cache.set(word, result);
      }
      return result;
    },
  };
}
