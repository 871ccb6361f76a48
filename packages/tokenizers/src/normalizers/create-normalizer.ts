import { InvalidArgumentError } from '@attnkit/errors';
import { tokenizerPattern } from '../regex/tokenizer-pattern.js';
import type { ComponentConfig } from '../tokenizer-json/component-config.js';
import { byteLevel } from '../unicode/byte-level-alphabet.js';
import { codePointSet } from '../unicode/code-point-set.js';
import { COMBINING_MARK } from '../unicode/rust-unicode-tables.js';
import { bertNormalizer } from './bert-normalizer.js';
import { lowercase } from './lowercase.js';
import { nmtNormalizer } from './nmt-normalizer.js';
import { precompiledNormalizer } from './precompiled-charsmap.js';
import { stripNormalizer } from './strip-normalizer.js';

/**
 * A normalizer: text in, normalized text out. `fromStart(text, length)`: given that the first
 * `length` UTF-16 units of `text` are aligned with the original text's first character, how many of
 * the normalized text's first units are (0 when the normalizer deleted them). This is the part of
 * the library's character alignments that Metaspace's `prepend_scheme: "first"` reads.
 */
export interface Normalizer {
  (text: string): string;
  fromStart(text: string, length: number): number;
}

/** A normalizer that maps each character on its own: the aligned part becomes what that part alone normalizes to. */
const charWise = (normalize: (text: string) => string): Normalizer =>
  Object.assign((text: string) => normalize(text), { fromStart: (text: string, length: number) => (length === 0 ? 0 : normalize(text.slice(0, length)).length) });

/** The normalizer types of tokenizers 0.23, every one run exactly. */
export const NORMALIZER_TYPES = ['BertNormalizer', 'NFC', 'NFD', 'NFKC', 'NFKD', 'Lowercase', 'Strip', 'StripAccents', 'Replace', 'Prepend', 'Nmt', 'Precompiled', 'ByteLevel', 'Sequence'] as const;

const isCombiningMark = codePointSet(COMBINING_MARK);

/**
 * Builds the normalizer a tokenizer.json `normalizer` (or an entry of a `Sequence`) describes, as the
 * Rust `tokenizers` library runs it. Fields the library requires must be there; an unknown type or a
 * field it would refuse is an `InvalidArgumentError` naming the place in the file.
 *
 * @example
 * createNormalizer(ComponentConfig.of({ type: 'Lowercase' }, 'normalizer', 'Tokenizer'))('ÀB'); // 'àb'
 */
export function createNormalizer(config: ComponentConfig): Normalizer {
  switch (config.type) {
    case 'BertNormalizer':
      return charWise(bertNormalizer({ cleanText: config.boolean('clean_text'), handleChineseChars: config.boolean('handle_chinese_chars'), stripAccents: config.nullableBoolean('strip_accents', null), lowercase: config.boolean('lowercase') }));
    case 'NFC':
    case 'NFD':
    case 'NFKC':
    case 'NFKD': {
      const form = config.type;
      return charWise((text) => text.normalize(form));
    }
    case 'Lowercase':
      return charWise(lowercase);
    case 'Strip':
      const [left, right] = [config.boolean('strip_left'), config.boolean('strip_right')];
      const strip = stripNormalizer(left, right);
      const fromStart = (text: string, length: number) => Math.max(0, Math.min(length - (text.length - stripNormalizer(true, false)(text).length) * Number(left), strip(text).length));
      return Object.assign(strip, { fromStart });
    case 'StripAccents':
      return charWise((text) => {
        let out = '';
        for (const char of text) if (!isCombiningMark(char.codePointAt(0) ?? 0)) out += char;
        return out;
      });
    case 'Replace': {
      const pattern = tokenizerPattern(config);
      const content = config.string('content');
      const replace = (text: string) => text.replace(pattern, () => content); // the content is literal text ($1, $& included)
      return Object.assign(replace, { fromStart: (text: string, length: number) => replacedFromStart(text, length, pattern, content) });
    }
    case 'Prepend': {
      const prepend = config.string('prepend');
      // the prepended text is aligned with the first character, as the library's prepend
      return Object.assign((text: string) => (text === '' ? text : prepend + text), { fromStart: (text: string, length: number) => (text !== '' && length > 0 ? length + prepend.length : 0) });
    }
    case 'Nmt':
      return charWise(nmtNormalizer);
    case 'Precompiled': {
      const charsmap = config.string('precompiled_charsmap');
      if (charsmap === '') config.fail('precompiled_charsmap', 'a base64 charsmap (the tokenizers library refuses an empty one)', charsmap);
      try {
        return charWise(precompiledNormalizer(charsmap));
      } catch (error) {
        if (error instanceof InvalidArgumentError) config.failWith('precompiled_charsmap', error.expected, error.received);
        throw error as Error;
      }
    }
    case 'ByteLevel':
      return charWise(byteLevel);
    case 'Sequence': {
      const steps = config.list('normalizers').map((entry, i) => createNormalizer(config.child('normalizers', i, entry)));
      const fromStart = (text: string, length: number) => {
        for (const step of steps) [text, length] = [step(text), step.fromStart(text, length)];
        return length;
      };
      return Object.assign((text: string) => steps.reduce((out, step) => step(out), text), { fromStart });
    }
    default:
      return config.unknownType('normalizer', NORMALIZER_TYPES);
  }
}

/**
 * The aligned part after a Replace. The library aligns the replacement of a match with the match's
 * last character (of an empty match, with the character before it; at the very start, with the
 * start), so replacement text is aligned when that character is, and the aligned part ends at the
 * first output unit that is not.
 */
function replacedFromStart(text: string, length: number, pattern: RegExp, content: string): number {
  let out = 0;
  let done = 0;
  for (const match of text.matchAll(pattern)) {
    const [start, end] = [match.index, match.index + match[0].length];
    out += Math.max(0, Math.min(start, length) - done); // kept text before the match, inside the aligned part
    if (start > Math.max(done, length)) return out; // kept text past it
    if (content !== '') {
      if (!(end > start ? end <= length : start <= length)) return out;
      out += content.length;
    }
    done = end;
  }
  return out + Math.max(0, length - done);
}
