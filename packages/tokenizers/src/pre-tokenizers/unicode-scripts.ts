import { unicodeScript } from '../unicode/unicode-script.js';
import { slicePiece, type Piece, type PreTokenizer } from './split-pieces.js';

/**
 * The `UnicodeScripts` pre-tokenizer of the Rust `tokenizers` library: a piece ends where the
 * script changes (its own frozen table: Hiragana, Katakana and U+30FC count as Han). The space and
 * characters outside the table ("Any") never start a piece: they stay with the piece before them,
 * and those before the first scripted character are dropped, as the library drops them.
 *
 * @example
 * unicodeScripts([{ text: ' hello мир', fromStart: 1 }]); // 'hello ', 'мир'
 */
export const unicodeScripts: PreTokenizer = (pieces) =>
  pieces.flatMap((piece): Piece[] => {
    const starts: number[] = [];
    let last = -1;
    let at = 0;
    for (const char of piece.text) {
      const script = unicodeScript(char.codePointAt(0) ?? 0);
      if (script !== 0 && last !== 0 && last !== script) starts.push(at);
      if (script !== 0) last = script;
      at += char.length;
    }
    starts.push(piece.text.length);
    const out: Piece[] = [];
    for (let i = 0; i + 1 < starts.length; i++) {
      const [start = 0, end = 0] = [starts[i], starts[i + 1]];
      if (end > start) out.push(slicePiece(piece, start, end));
    }
    return out;
  });
