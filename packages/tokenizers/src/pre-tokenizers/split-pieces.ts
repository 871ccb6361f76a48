/**
 * A pre-token: a piece of a normalized section of the text. `fromStart`: how many of its first
 * UTF-16 units the library aligns with the first character of the original text (0 for a piece
 * elsewhere); Metaspace's `prepend_scheme: "first"` prepends only to a piece with some (the
 * library's `offsets_original().0 == 0`).
 */
export interface Piece {
  readonly text: string;
  readonly fromStart: number;
}

/** A pre-tokenizer: pieces in, pieces out (none empty). */
export type PreTokenizer = (pieces: readonly Piece[]) => Piece[];

/** The library's `SplitDelimiterBehavior`: what becomes of the matched delimiters. */
export type SplitBehavior = 'Removed' | 'Isolated' | 'MergedWithPrevious' | 'MergedWithNext' | 'Contiguous';
export const SPLIT_BEHAVIORS: readonly SplitBehavior[] = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];

/** `[start, end, isMatch]`: consecutive spans covering a text (UTF-16 offsets), as the library's `find_matches`. */
export type Span = [number, number, boolean];

/** Spans of a text where each character for which `test` holds is a match of its own (the library's `Fn(char) -> bool` pattern). */
export function characterSpans(text: string, test: (char: string) => boolean): Span[] {
  if (text === '') return [[0, 0, false]];
  const spans: Span[] = [];
  let last = 0;
  let at = 0;
  for (const char of text) {
    if (test(char)) {
      if (last < at) spans.push([last, at, false]);
      spans.push([at, at + char.length, true]);
      last = at + char.length;
    }
    at += char.length;
  }
  if (at > last) spans.push([last, at, false]);
  return spans;
}

/** Spans of a text where each match of the global `pattern` is a match (the library's regex pattern). */
export function patternSpans(text: string, pattern: RegExp, invert = false): Span[] {
  if (text === '') return [[0, 0, invert]];
  const spans: Span[] = [];
  let previous = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    if (previous !== start) spans.push([previous, start, invert]);
    spans.push([start, end, !invert]);
    previous = end;
  }
  if (previous !== text.length) spans.push([previous, text.length, invert]);
  return spans;
}

/**
 * Splits `piece` at `spans` as the library's `NormalizedString::split` with `behavior`, dropping
 * empty pieces. With `"the-final--countdown"` split on `-`: Removed `the final countdown`,
 * Isolated `the - final - - countdown`, MergedWithPrevious `the- final- - countdown`,
 * MergedWithNext `the -final - -countdown`, Contiguous `the - final -- countdown`.
 *
 * @example
 * splitPiece({ text: 'a-b', fromStart: 1 }, characterSpans('a-b', (c) => c === '-'), 'MergedWithNext'); // 'a', '-b'
 */
export function splitPiece(piece: Piece, spans: readonly Span[], behavior: SplitBehavior): Piece[] {
  const kept: [number, number][] = [];
  let previousMatch = false;
  const ordered = behavior === 'MergedWithNext' ? [...spans].reverse() : spans;
  for (const [start, end, isMatch] of ordered) {
    const last = kept.at(-1);
    if (behavior === 'Removed') {
      if (!isMatch) kept.push([start, end]);
    } else if (behavior === 'Isolated') kept.push([start, end]);
    else if (behavior === 'Contiguous' && isMatch === previousMatch && last !== undefined) last[1] = end;
    else if (behavior === 'MergedWithPrevious' && isMatch && !previousMatch && last !== undefined) last[1] = end;
    else if (behavior === 'MergedWithNext' && isMatch && !previousMatch && last !== undefined) last[0] = start;
    else kept.push([start, end]);
    previousMatch = isMatch;
  }
  if (behavior === 'MergedWithNext') kept.reverse();
  const out: Piece[] = [];
  for (const [start, end] of kept) if (end > start) out.push(slicePiece(piece, start, end));
  return out;
}

/** `piece.text[start, end)` as a piece, with the part of `fromStart` it keeps. */
export function slicePiece(piece: Piece, start: number, end: number): Piece {
  return { text: piece.text.slice(start, end), fromStart: Math.max(0, Math.min(piece.fromStart, end) - start) };
}
