import { codePointSet } from '../unicode/code-point-set.js';
import { CONTROL, NONSPACING_MARK } from '../unicode/rust-unicode-tables.js';
import { lowercase } from './lowercase.js';

/** The options of a tokenizer.json `BertNormalizer`. */
export interface BertNormalizerOptions {
  readonly cleanText: boolean;
  readonly handleChineseChars: boolean;
  /** `null`: follow `lowercase`. */
  readonly stripAccents: boolean | null;
  readonly lowercase: boolean;
}

const isControl = codePointSet(CONTROL);
const isNonspacingMark = codePointSet(NONSPACING_MARK);
const WHITESPACE = /\p{White_Space}/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The ranges the library's `is_chinese_char` names (CJK ideographs, their extensions and compatibility forms). */
const isChinese = (cp: number) =>
  (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x2a6df) || (cp >= 0x2a700 && cp <= 0x2b73f) ||
  (cp >= 0x2b740 && cp <= 0x2b81f) || (cp >= 0x2b920 && cp <= 0x2ceaf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x2f800 && cp <= 0x2fa1f);

/**
 * The `BertNormalizer` of the Rust `tokenizers` library, step by step in its order: `cleanText`
 * drops NUL, U+FFFD and control/format/private-use characters (its frozen Unicode table) and turns
 * whitespace into spaces; `handleChineseChars` puts spaces around CJK ideographs; `stripAccents`
 * (default: as `lowercase`) drops nonspacing marks after NFD; `lowercase` lowercases each character.
 *
 * @example
 * bertNormalizer({ cleanText: true, handleChineseChars: true, stripAccents: null, lowercase: true })('Héllo\t世界'); // 'hello  世  界 '
 */
export function bertNormalizer(options: BertNormalizerOptions): (text: string) => string {
  const stripAccents = options.stripAccents ?? options.lowercase;
  return (text) => {
    if (PRINTABLE_ASCII.test(text)) return options.lowercase ? text.toLowerCase() : text; // nothing to clean, space or strip
    let out = text;
    if (options.cleanText || options.handleChineseChars) {
      out = '';
      for (const char of text) {
        const cp = char.codePointAt(0) ?? 0;
        if (options.cleanText && (isControl(cp) || cp === 0 || cp === 0xfffd)) continue;
        if (options.cleanText && WHITESPACE.test(char)) out += ' ';
        else if (options.handleChineseChars && isChinese(cp)) out += ` ${char} `;
        else out += char;
      }
    }
    if (stripAccents) {
      let stripped = '';
      for (const char of out.normalize('NFD')) if (!isNonspacingMark(char.codePointAt(0) ?? 0)) stripped += char;
      out = stripped;
    }
    return options.lowercase ? lowercase(out) : out;
  };
}
