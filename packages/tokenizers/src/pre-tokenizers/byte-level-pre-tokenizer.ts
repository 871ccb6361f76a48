import { byteLevel } from '../unicode/byte-level-alphabet.js';
import { patternSpans, splitPiece, type PreTokenizer } from './split-pieces.js';

/** GPT-2's split pattern, with Oniguruma's `\s` as Unicode White_Space. */
const GPT2 = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\p{White_Space}\p{L}\p{N}]+|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+/gu;

/**
 * The `ByteLevel` pre-tokenizer of the Rust `tokenizers` library (GPT-2, RoBERTa): with
 * `addPrefixSpace`, a space in front of each piece that does not start with one; with `useRegex`,
 * GPT-2's split (contractions, letters, digits, other symbols, whitespace runs); then each piece
 * as byte-level characters.
 *
 * @example
 * byteLevelPreTokenizer(true, true)([{ text: 'Hi there', fromStart: 1 }]); // 'ĠHi', 'Ġthere'
 */
export function byteLevelPreTokenizer(addPrefixSpace: boolean, useRegex: boolean): PreTokenizer {
  return (pieces) =>
    pieces.flatMap((piece) => {
      const prefix = addPrefixSpace && !piece.text.startsWith(' ');
      const text = prefix ? ` ${piece.text}` : piece.text;
      const prefixed = { text, fromStart: prefix && piece.fromStart > 0 ? piece.fromStart + 1 : piece.fromStart };
      const split = useRegex ? splitPiece(prefixed, patternSpans(text, GPT2), 'Isolated') : text === '' ? [] : [prefixed];
      return split.map((p) => ({ text: byteLevel(p.text), fromStart: byteLevel(p.text.slice(0, p.fromStart)).length }));
    });
}
