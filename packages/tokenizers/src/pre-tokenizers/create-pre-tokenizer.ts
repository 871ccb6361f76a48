import { tokenizerPattern } from '../regex/tokenizer-pattern.js';
import type { ComponentConfig } from '../tokenizer-json/component-config.js';
import { codePointSet } from '../unicode/code-point-set.js';
import { PUNCTUATION } from '../unicode/rust-unicode-tables.js';
import { byteLevelPreTokenizer } from './byte-level-pre-tokenizer.js';
import { metaspace } from './metaspace.js';
import { characterSpans, patternSpans, slicePiece, splitPiece, SPLIT_BEHAVIORS, type Piece, type PreTokenizer, type Span } from './split-pieces.js';
import { unicodeScripts } from './unicode-scripts.js';

/** The pre-tokenizer types of tokenizers 0.23, every one run exactly. */
export const PRE_TOKENIZER_TYPES = ['BertPreTokenizer', 'ByteLevel', 'Whitespace', 'WhitespaceSplit', 'Metaspace', 'CharDelimiterSplit', 'Split', 'Punctuation', 'Digits', 'UnicodeScripts', 'FixedLength', 'Sequence'] as const;

const WHITESPACE = /^\p{White_Space}$/u;
const NUMERIC = /^\p{N}$/u;
const isPunctuation = codePointSet(PUNCTUATION);
const punctuation = (char: string) => isPunctuation(char.codePointAt(0) ?? 0);
const whitespace = (char: string) => WHITESPACE.test(char);
/** The Rust regex crate's `\w+|[^\w\s]+` (Unicode word characters, White_Space). */
const WORDS = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+|[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}\p{White_Space}]+/gu;

/** A pre-tokenizer that splits every piece at the spans `spans` gives it. */
const splitting = (spans: (text: string) => Span[], behavior: Parameters<typeof splitPiece>[2]): PreTokenizer => (pieces) => pieces.flatMap((piece) => splitPiece(piece, spans(piece.text), behavior));

/**
 * Builds the pre-tokenizer a tokenizer.json `pre_tokenizer` (or an entry of a `Sequence`) describes,
 * as the Rust `tokenizers` library runs it: BertPreTokenizer (whitespace removed, punctuation
 * isolated), ByteLevel, Whitespace (`\w+|[^\w\s]+`), WhitespaceSplit, Metaspace, CharDelimiterSplit,
 * Split (a pattern, one of the five behaviors, `invert`), Punctuation, Digits, UnicodeScripts,
 * FixedLength (in characters) and Sequence. Character classes are the library's (Unicode
 * White_Space, its frozen punctuation table, `\p{N}` for digits). An unknown type or a field the
 * library would refuse is an `InvalidArgumentError` naming the place in the file.
 *
 * @example
 * createPreTokenizer(ComponentConfig.of({ type: 'WhitespaceSplit' }, 'pre_tokenizer', 'Tokenizer'))([{ text: 'a b', fromStart: 1 }]); // 'a', 'b'
 */
export function createPreTokenizer(config: ComponentConfig): PreTokenizer {
  switch (config.type) {
    case 'BertPreTokenizer': {
      const words = splitting((text) => characterSpans(text, whitespace), 'Removed');
      const punctuated = splitting((text) => characterSpans(text, punctuation), 'Isolated');
      return (pieces) => punctuated(words(pieces));
    }
    case 'ByteLevel':
      config.boolean('trim_offsets'); // required by the library; offsets only
      return byteLevelPreTokenizer(config.boolean('add_prefix_space'), config.boolean('use_regex', true));
    case 'Whitespace':
      return splitting((text) => patternSpans(text, WORDS, true), 'Removed');
    case 'WhitespaceSplit':
      return splitting((text) => characterSpans(text, whitespace), 'Removed');
    case 'Metaspace':
      return metaspace({ replacement: config.character('replacement'), prependScheme: metaspacePrependScheme(config), split: config.boolean('split', true) });
    case 'CharDelimiterSplit': {
      const delimiter = config.character('delimiter');
      return splitting((text) => characterSpans(text, (c) => c === delimiter), 'Removed');
    }
    case 'Split': {
      const pattern = tokenizerPattern(config);
      const behavior = config.oneOf('behavior', SPLIT_BEHAVIORS);
      const invert = config.boolean('invert');
      return splitting((text) => patternSpans(text, pattern, invert), behavior);
    }
    case 'Punctuation': {
      const behavior = config.oneOf('behavior', SPLIT_BEHAVIORS, 'Isolated');
      return splitting((text) => characterSpans(text, punctuation), behavior);
    }
    case 'Digits': {
      const individual = config.boolean('individual_digits');
      return splitting((text) => characterSpans(text, (c) => NUMERIC.test(c)), individual ? 'Isolated' : 'Contiguous');
    }
    case 'UnicodeScripts':
      return unicodeScripts;
    case 'FixedLength': {
      const length = config.integer('length', 1, 2 ** 31 - 1, 5); // the library panics on 0
      return (pieces) =>
        pieces.flatMap((piece): Piece[] => {
          const out: Piece[] = [];
          let [start, count] = [0, 0];
          for (let at = 0; at < piece.text.length; ) {
            at += (piece.text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
            if (++count === length || at === piece.text.length) {
              out.push(slicePiece(piece, start, at));
              [start, count] = [at, 0];
            }
          }
          return out;
        });
    }
    case 'Sequence': {
      const steps = config.list('pretokenizers').map((entry, i) => createPreTokenizer(config.child('pretokenizers', i, entry)));
      return (pieces) => steps.reduce((out, step) => step(out), [...pieces]);
    }
    default:
      return config.unknownType('pre-tokenizer', PRE_TOKENIZER_TYPES);
  }
}

/** Metaspace's `prepend_scheme` (default "always"); an old file's `add_prefix_space: false` means "never", as the library reads it. */
export function metaspacePrependScheme(config: ComponentConfig): 'always' | 'first' | 'never' {
  const scheme = config.oneOf('prepend_scheme', ['always', 'first', 'never'] as const, 'always');
  const addPrefixSpace = config.nullableBoolean('add_prefix_space', null);
  if (addPrefixSpace === false && scheme !== 'never') config.fail('add_prefix_space', `true or absent with prepend_scheme "${scheme}" (the tokenizers library refuses the mismatch; an absent prepend_scheme is "always")`, false);
  return addPrefixSpace === false ? 'never' : scheme;
}
