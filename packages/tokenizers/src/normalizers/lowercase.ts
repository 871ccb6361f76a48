const cache = new Map<number, string>();

/**
 * Lowercases `text` one code point at a time, as the Rust `tokenizers` library does (each
 * character's own lowercase mapping, so `Σ` is always `σ`: there is no final-sigma rule, unlike
 * `String.prototype.toLowerCase` on a whole word).
 *
 * @example
 * lowercase('ΣΑΣ İ'); // 'σασ i̇' (toLowerCase gives 'σας i̇')
 */
export function lowercase(text: string): string {
  if (/^[\0-\x7f]*$/.test(text)) return text.toLowerCase(); // ASCII: one mapping per character
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    let lower = cache.get(cp);
    if (lower === undefined) {
      lower = char.toLowerCase();
      cache.set(cp, lower);
    }
    out += lower;
  }
  return out;
}
