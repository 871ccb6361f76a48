import { MissingUnknownToken, type Token, type TokenizerModel } from './tokenizer-model.js';

/** The options of a tokenizer.json `Unigram` model. */
export interface UnigramOptions {
  /** `[piece, score]` pairs; a piece's id is its index. */
  readonly vocab: ReadonlyArray<readonly [string, number]>;
  readonly unkId: number | null;
  readonly byteFallback: boolean;
}

/** The score below the lowest piece's that an unknown character costs (the library's `K_UNK_PENALTY`). */
const UNK_PENALTY = 10;
const CACHE_CAPACITY = 10_000;
const encoder = new TextEncoder();

interface TrieNode {
  id: number;
  readonly children: Map<string, TrieNode>;
}

/**
 * The Unigram model of the Rust `tokenizers` library (SentencePiece): the segmentation of a word
 * with the highest total score (Viterbi over every piece that matches at each character; a
 * character no one-character piece covers may be the unknown token, scored 10 below the lowest
 * piece). Ties keep the first path found, as the library does; consecutive unknown characters are
 * one unknown token, or, with `byteFallback`, their `<0xXX>` byte tokens when all are there.
 *
 * @example
 * unigram({ vocab: [['<unk>', 0], ['a', -1], ['b', -2], ['ab', -1.5]], unkId: 0, byteFallback: false }).tokenize('abc'); // ab, <unk>
 */
export function unigram(options: UnigramOptions): TokenizerModel {
  const ids = new Map<string, number>();
  const root: TrieNode = { id: -1, children: new Map() };
  let minScore = Infinity;
  options.vocab.forEach(([piece, score], id) => {
    ids.set(piece, id);
    if (score < minScore) minScore = score;
    let node = root;
    for (const char of piece) {
      let child = node.children.get(char);
      if (child === undefined) node.children.set(char, (child = { id: -1, children: new Map() }));
      node = child;
    }
    if (node !== root) node.id = id; // an empty piece can never match
  });
  const unkScore = minScore - UNK_PENALTY;
  const cache = new Map<string, string[]>();

  /** The best segmentation of `word` as strings (the library's `encode_optimized`; unknown runs fused). */
  const segment = (word: string): string[] => {
    const chars = [...word];
    const n = chars.length;
    const bestScore = new Float64Array(n + 1);
    const startsAt = new Int32Array(n + 1).fill(-1);
    const bestId = new Int32Array(n + 1);
    for (let start = 0; start < n; start++) {
      const base = bestScore[start]!;
      let hasSingle = false;
      let node: TrieNode | undefined = root;
      for (let end = start; end < n && node !== undefined; end++) {
        node = node.children.get(chars[end]!);
        if (node === undefined || node.id < 0) continue;
        const score = base + (options.vocab[node.id]?.[1] ?? 0);
        if (startsAt[end + 1] === -1 || score > bestScore[end + 1]!) {
          bestScore[end + 1] = score;
          startsAt[end + 1] = start;
          bestId[end + 1] = node.id;
        }
        if (end === start) hasSingle = true;
      }
      if (!hasSingle) {
        const score = base + unkScore;
        if (startsAt[start + 1] === -1 || score > bestScore[start + 1]!) {
          if (options.unkId === null) throw new MissingUnknownToken(word);
          bestScore[start + 1] = score;
          startsAt[start + 1] = start;
          bestId[start + 1] = options.unkId;
        }
      }
    }
    const pieces: string[] = [];
    let unknown: string[] = [];
    for (let end = n; end > 0; ) {
      const start = startsAt[end]!;
      const piece = chars.slice(start, end).join('');
      if (bestId[end] === options.unkId) unknown.push(piece);
      else {
        if (unknown.length > 0) pieces.push(unknown.reverse().join(''));
        unknown = [];
        pieces.push(piece);
      }
      end = start;
    }
    if (unknown.length > 0) pieces.push(unknown.reverse().join(''));
    return pieces.reverse();
  };

  return {
    size: options.vocab.length,
    tokenToId: (token) => ids.get(token),
    idToToken: (id) => options.vocab[id]?.[0],
    tokenize(word) {
      if (word === '') return [];
      let pieces = cache.get(word);
      if (pieces === undefined) {
        pieces = segment(word);
        if (cache.size < CACHE_CAPACITY) cache.set(word, pieces);
      }
      const out: Token[] = [];
      for (const piece of pieces) {
        const id = ids.get(piece);
        if (id !== undefined) {
          out.push({ id, token: piece });
          continue;
        }
        if (options.byteFallback) {
          const bytes = Array.from(encoder.encode(piece), (b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
          if (bytes.every((b) => ids.has(b))) {
            for (const b of bytes) out.push({ id: ids.get(b)!, token: b });
            continue;
          }
        }
        if (options.unkId === null) throw new MissingUnknownToken(word);
        out.push({ id: options.unkId, token: piece });
      }
      return out;
    },
  };
}
