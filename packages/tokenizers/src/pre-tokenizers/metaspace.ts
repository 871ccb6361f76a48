import { characterSpans, splitPiece, type Piece, type PreTokenizer } from './split-pieces.js';

/** The options of a tokenizer.json `Metaspace` pre-tokenizer (and decoder). */
export interface MetaspaceOptions {
  /** One character, usually `▁` (U+2581). */
  readonly replacement: string;
  /** When to put the replacement in front of a piece that does not start with it: every piece, the one at the start of the text, or never. */
  readonly prependScheme: 'always' | 'first' | 'never';
  /** Split before each replacement character (each word keeps its `▁`). */
  readonly split: boolean;
}

/**
 * The `Metaspace` pre-tokenizer of the Rust `tokenizers` library (SentencePiece's whitespace
 * handling): spaces become `replacement`, which is prepended per `prependScheme` ("first": only to
 * a piece that starts with the text's first character, so not after an added token nor after a
 * character the normalizer deleted) and, with `split`, starts each piece.
 *
 * @example
 * metaspace({ replacement: '▁', prependScheme: 'always', split: true })([{ text: 'Hello world', fromStart: 1 }]); // '▁Hello', '▁world'
 */
export function metaspace(options: MetaspaceOptions): PreTokenizer {
  const { replacement, prependScheme } = options;
  return (pieces) =>
    pieces.flatMap((piece): Piece[] => {
      let text = piece.text.replaceAll(' ', replacement);
      let { fromStart } = piece;
      if (!text.startsWith(replacement) && (prependScheme === 'always' || (prependScheme === 'first' && fromStart > 0))) {
        text = replacement + text;
        if (fromStart > 0) fromStart += replacement.length; // aligned with the first character, as the library's prepend
      }
      const replaced = { text, fromStart };
      return options.split ? splitPiece(replaced, characterSpans(text, (c) => c === replacement), 'MergedWithNext') : text === '' ? [] : [replaced];
    });
}
