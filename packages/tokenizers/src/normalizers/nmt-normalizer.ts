/** The ASCII and C1 control characters Nmt removes: U+0001-0008, 000B, 000E-001F, 007F, 008F, 009F. */
const REMOVED = /[\u0001-\u0008\u000b\u000e-\u001f\u007f\u008f\u009f]/gu;
/** The characters Nmt turns into a space: tab, LF, FF, CR, U+1680, U+200B-200F, U+2028, U+2029, U+2581, U+FEFF, U+FFFD. */
const SPACES = /[\u0009\u000a\u000c\u000d\u1680\u200b-\u200f\u2028\u2029\u2581\ufeff\ufffd]/gu;

/**
 * The `Nmt` normalizer of the Rust `tokenizers` library (SentencePiece's nmt rules before NFKC):
 * removes control characters and turns the other whitespace and zero-width characters into spaces.
 * The NUL character and U+0085 are kept, as the library keeps them.
 *
 * @example
 * nmtNormalizer('a\u0001b\tc\u200bd'); // 'ab c d'
 */
export function nmtNormalizer(text: string): string {
  return text.replace(REMOVED, '').replace(SPACES, ' ');
}
